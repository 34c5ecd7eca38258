package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.os.AttachProbe;
import io.khamsin.benchmark.os.CoreKeeper;
import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.Route;

/**
 * {@code cpu-fixed-rate}: the status request at a fixed rate every target sustains, and the server's CPU time per
 * request: the scheduler's run time of every thread of its process tree over the window
 * ({@code /proc/PID/task/TID/schedstat}), and where the kernel keeps none, utime + stime (clock ticks, beside the
 * headline as {@code tick_us_per_req}). The headline for fast paths, where a throughput ratio is only a lower bound
 * once the load core saturates. Beside it, for JVM targets, the bytes allocated per request over the same window
 * ({@link AttachProbe}). The spinner that keeps the server core awake is stopped for the window
 * ({@link CoreKeeper}).
 */
final class CpuFixedRateScenario implements Scenario {

	private final RateScenario status = new RateScenario("status", Route.PLAINTEXT, 1, 64, false);

	@Override
	public String name() {
		return "cpu-fixed-rate";
	}

	@Override
	public String unit() {
		return "us/req";
	}

	@Override
	public boolean higherIsBetter() {
		return false;
	}

	@Override
	public String figure() {
		return "GET /plaintext at a fixed rate on 64 connections (open loop): server CPU microseconds per request "
				+ "(run time of every server thread from /proc/PID/task/TID/schedstat); alloc b per req: bytes the "
				+ "JVM targets allocated per request over the same window";
	}

	@Override
	public List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	@Override
	public WarmUp warmUp(RunContext context, RunningTarget target) {
		return this.status.warmUp(context, target);
	}

	@Override
	public Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		Settings settings = context.settings();
		int rate = settings.cpuRate();
		double seconds = Math.max(3, settings.trialSeconds() * 2);
		context.progress().step(target.name(), round, settings.rounds(), String.format("fixed %,d req/s for %.0f s",
				rate, seconds));
		ProcessTree tree = new ProcessTree(target.process().pid());
		// Allocation is read around the CPU window, not inside it: attaching costs the target CPU of its own.
		Allocation allocation = target.process().spec().jvm()
				? new Allocation(new AttachProbe(target.process().pid(), context.runDir().resolve("targets"))) : null;
		if (allocation != null) {
			allocation.start();
		}
		boolean precise = ProcessTree.hasSchedstat();
		CoreUsage server;
		LoadResult result;
		long used;
		long usedNanos;
		// The server core may halt in this window: the spinner that keeps it awake would add its switches to every
		// target's CPU per request (CoreKeeper says by how much).
		try (CoreKeeper.Resume awake = context.coreKeeper().letHalt()) {
			server = CoreUsage.start(settings.serverCore());
			long nanos = precise ? tree.cpuNanos() : 0;
			long ticks = tree.cpuTicks();
			result = context.generator().run(LoadSpec.openLoop(target.process().address(),
					this.status.request(target), 64, rate, Duration.ZERO, Duration.ofMillis((long) (seconds * 1000))));
			used = tree.cpuTicks() - ticks;
			usedNanos = precise ? tree.cpuNanos() - nanos : 0;
		}
		long allocated = (allocation != null) ? allocation.bytesSinceStart() : -1;
		long answered = result.completed() + result.errors();
		double tickMicros = (answered > 0) ? used * (1e6 / ProcessTree.TICKS_PER_SECOND) / answered : 0;
		double microsPerRequest = !precise ? tickMicros : (answered > 0) ? usedNanos / 1e3 / answered : 0;
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("rate", rate);
		extras.put("achieved", RateScenario.round1(result.achievedRate()));
		extras.put("server_cpu_ticks", used);
		extras.put("tick_us_per_req", RateScenario.round1(tickMicros));
		if (allocated >= 0 && answered > 0) {
			extras.put("alloc_b_per_req", Math.round((double) allocated / answered));
		}
		extras.put("send_lag_p99_ms", result.sendLagP99Nanos() / 1e6);
		extras.put("server_cpu_pct", RateScenario.round1(server.busyPercent()));
		String note = "";
		if (result.errors() > 0 || result.achievedRate() < 0.9 * rate) {
			note = String.format("did not sustain %,d req/s (achieved %,.0f, %d errors)", rate, result.achievedRate(),
					result.errors());
		}
		if (allocation != null && allocation.missing != null) {
			String why = "no allocation figure: " + allocation.missing;
			note = note.isEmpty() ? why : note + "; " + why;
			context.progress().step(target.name(), round, settings.rounds(), "  " + why);
		}
		context.progress().step(target.name(), round, settings.rounds(),
				String.format("  %.1f us/request (%s)", microsPerRequest, result.describe()));
		return new Measurement(microsPerRequest, result.p50Millis(), result.p99Millis(), note, extras,
				Map.of("result", result.describe()));
	}

	/**
	 * The bytes a JVM target allocates over the CPU window, or why they could not be read.
	 */
	static final class Allocation {

		private final AttachProbe probe;

		private AttachProbe.Reading before;

		/** Why there is no figure, or {@code null}. */
		String missing;

		Allocation(AttachProbe probe) {
			this.probe = probe;
		}

		void start() {
			try {
				this.before = this.probe.read();
			}
			catch (IllegalStateException ex) {
				this.missing = ex.getMessage();
			}
		}

		/** @return the bytes allocated since {@link #start()}, or -1 when they could not be read */
		long bytesSinceStart() {
			if (this.before == null) {
				return -1;
			}
			try {
				return this.probe.read().allocatedSince(this.before);
			}
			catch (IllegalStateException ex) {
				this.missing = ex.getMessage();
				return -1;
			}
		}

	}

}
