package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RateSearch;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;

/**
 * A throughput scenario: the highest fixed rate with p99 under a bound, no errors and 90% achieved, found by an
 * open-loop rate search each round (the first round starts from 90% of the closed-loop peak, later rounds search
 * near the previous answer), with wrk's closed-loop peak and the load core's utilisation beside it.
 */
final class RateScenario implements Scenario {

	private final String name;

	private final Route route;

	private final double p99BoundMillis;

	private final int connections;

	private final boolean connectionPerRequest;

	RateScenario(String name, Route route, double p99BoundMillis, int connections, boolean connectionPerRequest) {
		this.name = name;
		this.route = route;
		this.p99BoundMillis = p99BoundMillis;
		this.connections = connections;
		this.connectionPerRequest = connectionPerRequest;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String unit() {
		return "req/s";
	}

	/** This scenario with {@code bound} in place of a 1 ms bound; other bounds are kept. */
	RateScenario withBound(double bound) {
		return (this.p99BoundMillis == 1)
				? new RateScenario(this.name, this.route, bound, this.connections, this.connectionPerRequest) : this;
	}

	@Override
	public boolean higherIsBetter() {
		return true;
	}

	@Override
	public String figure() {
		return String.format("%s %s, %s: req/s with p99 <= %s ms (open loop, rate search); closed-loop peak (wrk -t1 "
				+ "-c%d) beside", this.route.method(), this.route.path(),
				this.connectionPerRequest ? "a new connection per request" : this.connections + " keep-alive connections",
				fmt(this.p99BoundMillis), this.connections);
	}

	private static String fmt(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

	@Override
	public List<Route> routes() {
		return List.of(this.route);
	}

	RequestTemplate request(RunningTarget target) {
		long length = target.bodyLength(this.route);
		return new RequestTemplate(this.route.method(), this.route.path(),
				(this.route.requestBody().length > 0) ? Map.of("Content-Type", this.route.contentType()) : Map.of(),
				this.route.requestBody(), 200, length);
	}

	private LoadSpec spec(RunContext context, RunningTarget target, double rate, Duration warmup, Duration window) {
		// A trial that left requests unanswered has failed whatever comes later: do not wait long for them.
		Duration drain = Duration.ofMillis(500);
		if (this.connectionPerRequest) {
			return LoadSpec.connectionPerRequest(target.process().address(), request(target), rate, warmup, window)
				.withDrainTimeout(drain);
		}
		return LoadSpec.openLoop(target.process().address(), request(target), this.connections, rate, warmup, window)
			.withDrainTimeout(drain);
	}

	@Override
	public void warmUp(RunContext context, RunningTarget target) {
		if (!target.process().spec().jvm()) {
			return;
		}
		int seconds = context.settings().warmupSeconds();
		context.progress().step(target.name(), 0, context.settings().rounds(), "warming up " + seconds + " s");
		LoadResult result;
		if (this.connectionPerRequest) {
			result = context.generator().run(LoadSpec.connectionPerRequest(target.process().address(),
					request(target), 2_000, Duration.ZERO, Duration.ofSeconds(seconds)));
		}
		else {
			// Two thirds closed loop for the target's JIT, then a third open loop at half that rate, so that the
			// generator's own scheduled-send path is compiled too before any trial is timed.
			int closed = Math.max(1, seconds * 2 / 3);
			result = context.generator().run(LoadSpec.closedLoop(target.process().address(), request(target),
					this.connections, Duration.ZERO, Duration.ofSeconds(closed)));
			if (result.achievedRate() > 0 && seconds - closed > 0) {
				context.generator().run(LoadSpec.openLoop(target.process().address(), request(target),
						this.connections, result.achievedRate() / 2, Duration.ZERO, Duration.ofSeconds(seconds - closed)));
			}
		}
		context.progress().step(target.name(), 0, context.settings().rounds(),
				String.format("warm-up done: %.0f req/s, %d errors", result.achievedRate(), result.errors()));
	}

	@Override
	public Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		Settings settings = context.settings();
		Map<String, Object> extras = new LinkedHashMap<>();
		double peak = closedLoopPeak(context, target, round, extras);
		Duration window = Duration.ofMillis((long) (settings.trialSeconds() * 1000));
		Duration warmup = Duration.ofMillis(Math.min(1000, window.toMillis() / 3));
		List<Map<String, Object>> trials = new ArrayList<>();
		double[] serverCpu = new double[1];
		Map<Double, double[]> usage = new LinkedHashMap<>();
		RateSearch search = new RateSearch((rate) -> {
			context.progress().step(target.name(), round, settings.rounds(), String.format("trying %,.0f req/s", rate));
			CoreUsage load = CoreUsage.start(settings.loadCore());
			CoreUsage server = CoreUsage.start(settings.serverCore());
			LoadResult result = context.generator().run(spec(context, target, rate, warmup, window));
			usage.put(rate, new double[] { load.busyPercent(), server.busyPercent() });
			return result;
		}, this.p99BoundMillis, (step) -> {
			double[] cpu = usage.get(step.rate());
			context.progress().step(target.name(), round, settings.rounds(),
					String.format("  %,.0f req/s%s %s: %s", step.rate(), step.repeat() ? " (repeat)" : "",
							step.passed() ? "PASS" : "fail",
							step.passed() ? String.format("p99 %.3f ms, send lag p99 %.3f ms", step.result().p99Millis(),
									step.result().sendLagP99Nanos() / 1e6) : step.reason()));
			trials.add(trial(step, cpu));
		});
		RateSearch.Outcome outcome;
		if (previous == null || previous.value() <= 0) {
			outcome = search.search(Math.max(100, Math.round(0.9 * peak)), settings.searchTrials());
		}
		else {
			outcome = search.search(previous.value(), settings.refineTrials(), 1.05, 0.9);
		}
		if (outcome.result() == null) {
			return new Measurement(0, null, null, "no rate tried met p99 <= " + fmt(this.p99BoundMillis) + " ms",
					extras, trials);
		}
		double[] cpu = usage.get(outcome.rate());
		serverCpu[0] = cpu[1];
		extras.put("server_cpu_pct", round1(serverCpu[0]));
		double sendLag = outcome.result().sendLagP99Nanos() / 1e6;
		extras.put("send_lag_p99_ms", Math.round(sendLag * 1000) / 1000.0);
		if (this.route.path().startsWith("/files/")) {
			extras.put("mb_per_s", round1(outcome.result().megabytesPerSecond()));
		}
		// The generator busy-polls during a run, so its core always reads busy: whether it kept up shows in how late
		// it sent against its schedule.
		String note = (sendLag > this.p99BoundMillis / 2) ? "the generator fell behind its schedule: a lower bound" : "";
		return new Measurement(outcome.rate(), outcome.result().p50Millis(), outcome.result().p99Millis(), note,
				extras, trials);
	}

	private double closedLoopPeak(RunContext context, RunningTarget target, int round, Map<String, Object> extras) {
		Settings settings = context.settings();
		CoreUsage load = CoreUsage.start(settings.loadCore());
		double peak;
		if (context.wrk().available()) {
			Wrk.Peak result = context.wrk().peak(target.process().address(), this.route, this.connections,
					settings.peakSeconds(), this.connectionPerRequest);
			peak = result.rate();
			if (!result.errors().isEmpty()) {
				extras.put("closed_loop_errors", result.errors());
			}
			extras.put("closed_loop_tool", "wrk");
		}
		else {
			LoadResult result = context.generator().run(LoadSpec.closedLoop(target.process().address(),
					request(target), this.connections, Duration.ZERO, Duration.ofSeconds(settings.peakSeconds())));
			peak = result.achievedRate();
			extras.put("closed_loop_tool", "khamsin-benchmark closed loop (wrk not installed)");
		}
		extras.put("closed_loop_peak", Math.round(peak));
		extras.put("closed_loop_load_cpu_pct", round1(load.busyPercent()));
		context.progress().step(target.name(), round, settings.rounds(),
				String.format("closed-loop peak %,.0f req/s (load core %.0f%%)", peak, load.busyPercent()));
		return peak;
	}

	private static Map<String, Object> trial(RateSearch.Step step, double[] cpu) {
		LoadResult result = step.result();
		Map<String, Object> trial = new LinkedHashMap<>();
		trial.put("rate", step.rate());
		trial.put("passed", step.passed());
		trial.put("repeat", step.repeat());
		trial.put("reason", step.reason());
		trial.put("achieved", round1(result.achievedRate()));
		trial.put("completed", result.completed());
		trial.put("errors", result.errors());
		trial.put("first_error", result.firstError());
		for (double p : new double[] { 50, 90, 99, 99.9, 99.99 }) {
			trial.put("p" + fmt(p) + "_ms", Math.round(result.percentileMillis(p) * 1000) / 1000.0);
		}
		trial.put("max_ms", result.responseTime().getMaxValue() / 1e6);
		trial.put("service_p99_ms", result.serviceTimeP99Nanos() / 1e6);
		trial.put("send_lag_p99_ms", result.sendLagP99Nanos() / 1e6);
		trial.put("server_core_pct", round1(cpu[1]));
		return trial;
	}

	static double round1(double value) {
		return Math.round(value * 10) / 10.0;
	}

}
