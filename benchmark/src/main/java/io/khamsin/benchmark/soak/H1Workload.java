package io.khamsin.benchmark.soak;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.netty.buffer.UnpooledByteBufAllocator;

import io.khamsin.benchmark.load.LoadGenerator;
import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;

/**
 * HTTP/1.1 over TLS through the benchmark's open-loop generator ({@code load/LoadRun}): one or more load specs at
 * once, each on a generator of its own, which counts another status or body length, a closed connection or a
 * missing answer as an error. The specs' durations are replaced by the soak's.
 */
final class H1Workload implements Workload {

	/**
	 * How long the answers still in flight when the load ends are awaited: long, because the gate is on errors, not
	 * latency, and a machine shared with other builds can hold a request up for seconds.
	 */
	static final Duration DRAIN = Duration.ofSeconds(30);

	private final String name;

	private final String description;

	private final List<LoadSpec> specs;

	H1Workload(String name, String description, List<LoadSpec> specs) {
		this.name = name;
		this.description = description;
		this.specs = List.copyOf(specs);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public Outcome run(Duration duration) {
		List<CompletableFuture<Outcome>> parts = this.specs.stream()
			.map((spec) -> CompletableFuture.supplyAsync(() -> runOne(resize(spec, duration))))
			.toList();
		Outcome total = new Outcome(0, 0, null);
		for (CompletableFuture<Outcome> part : parts) {
			total = total.plus(part.join());
		}
		return total;
	}

	private static LoadSpec resize(LoadSpec spec, Duration duration) {
		return new LoadSpec(spec.address(), spec.request(), spec.connections(), spec.rate(), Duration.ZERO, duration,
				spec.connectionPerRequest(), DRAIN, spec.tls());
	}

	private static Outcome runOne(LoadSpec spec) {
		// Unpooled: outside Netty's leak detector, which in a test JVM would cost the client more than the server.
		try (LoadGenerator generator = new LoadGenerator(new UnpooledByteBufAllocator(false))) {
			LoadResult result = generator.run(spec);
			return new Outcome(result.completed(), result.errors(), result.firstError());
		}
		catch (RuntimeException ex) {
			return new Outcome(0, 1, "the load did not run: " + ex.getMessage());
		}
	}

}
