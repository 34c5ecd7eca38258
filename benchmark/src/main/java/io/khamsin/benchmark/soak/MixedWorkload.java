package io.khamsin.benchmark.soak;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Two workloads of one protocol at once, counted as one: keep-alive traffic and a new connection per request at a
 * quarter of its rate, so that 80% of the requests go on kept-alive connections and 20% close theirs.
 */
final class MixedWorkload implements Workload {

	private final String name;

	private final Workload keepAlive;

	private final Workload closing;

	MixedWorkload(String name, Workload keepAlive, Workload closing) {
		this.name = name;
		this.keepAlive = keepAlive;
		this.closing = closing;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String description() {
		return "80%: " + this.keepAlive.description() + "; 20%: " + this.closing.description();
	}

	@Override
	public Outcome run(Duration duration) {
		CompletableFuture<Outcome> closed = CompletableFuture.supplyAsync(() -> Soak.runSafely(this.closing, duration));
		return Soak.runSafely(this.keepAlive, duration).plus(closed.join());
	}

}
