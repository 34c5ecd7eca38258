package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.IdleConnections;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.JvmProbe;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;

/**
 * {@code idle-10k}: 10,000 keep-alive connections that each made one request and stay idle. RSS barely moves on a
 * JVM (it reuses memory it already touched), so the headline for JVM targets is the live heap per connection (class
 * histogram after a full GC, connections open minus none open) with direct memory per connection (NMT) and RSS/PSS
 * beside it; nginx gets its PSS per connection. Each round starts a fresh process.
 */
final class IdleConnectionsScenario implements Scenario {

	static final int CONNECTIONS = 10_000;

	@Override
	public String name() {
		return "idle-10k";
	}

	@Override
	public String unit() {
		return "B/conn";
	}

	@Override
	public boolean higherIsBetter() {
		return false;
	}

	@Override
	public String figure() {
		return "10,000 idle keep-alive connections: live heap bytes per connection (class histogram after full GC); "
				+ "direct memory and RSS/PSS per connection beside; nginx: PSS per connection";
	}

	@Override
	public List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	@Override
	public boolean restartsPerRound() {
		return true;
	}

	@Override
	public Measurement measureFresh(RunContext context, TargetSpec target, int round) {
		Settings settings = context.settings();
		try (TargetProcess process = context.launch(target, List.of("-XX:NativeMemoryTracking=summary"))) {
			process.awaitFirstAnswer(120);
			IntegrityCheck.Result check = new IntegrityCheck().check(process.address(), Route.PLAINTEXT);
			if (!check.passed()) {
				throw new IllegalStateException(check.reason());
			}
			RequestTemplate request = RequestTemplate.get(Route.PLAINTEXT.path(), check.bodyLength());
			context.generator().run(LoadSpec.closedLoop(process.address(), request, 16, Duration.ZERO,
					Duration.ofSeconds(2)));
			ProcessTree tree = new ProcessTree(process.pid());
			JvmProbe jvm = target.jvm() ? new JvmProbe(process.pid()) : null;
			long heapBefore = (jvm != null) ? jvm.liveHeapBytes() : 0;
			long directBefore = (jvm != null) ? jvm.directMemoryKb() : 0;
			long rssBefore = tree.rssKb();
			long pssBefore = tree.pssKb();
			context.progress().step(target.name(), round, settings.rounds(),
					String.format("opening %,d idle connections", CONNECTIONS));
			try (IdleConnections idle = context.generator().openIdle(process.address(), request, CONNECTIONS)) {
				sleep(1000);
				int open = idle.open();
				if (open < CONNECTIONS * 0.99) {
					throw new IllegalStateException("only " + open + " of " + CONNECTIONS + " connections stayed open ("
							+ idle.failed() + " failed)");
				}
				long heapAfter = (jvm != null) ? jvm.liveHeapBytes() : 0;
				long directAfter = (jvm != null) ? jvm.directMemoryKb() : 0;
				long rssAfter = tree.rssKb();
				long pssAfter = tree.pssKb();
				Map<String, Object> extras = new LinkedHashMap<>();
				extras.put("connections", open);
				double rssPer = (rssAfter - rssBefore) * 1024.0 / open;
				double pssPer = (pssAfter - pssBefore) * 1024.0 / open;
				extras.put("rss_b_per_conn", Math.round(rssPer));
				extras.put("pss_b_per_conn", Math.round(pssPer));
				double value;
				if (jvm != null) {
					value = (heapAfter - heapBefore) / (double) open;
					extras.put("metric", "live heap");
					extras.put("direct_b_per_conn", (directBefore >= 0 && directAfter >= 0)
							? Math.round((directAfter - directBefore) * 1024.0 / open) : null);
				}
				else {
					value = pssPer;
					extras.put("metric", "PSS");
				}
				context.progress().step(target.name(), round, settings.rounds(),
						String.format("  %,.0f B/conn (%s), RSS %,.0f B/conn", value, extras.get("metric"), rssPer));
				return Measurement.of(value, (jvm != null) ? "" : "PSS per connection (no heap to weigh)", extras,
						extras);
			}
		}
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
