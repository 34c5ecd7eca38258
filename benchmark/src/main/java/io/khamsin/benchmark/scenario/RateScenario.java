package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.ClientTls;
import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RateSearch;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * A throughput scenario: the highest fixed rate with p99 under a bound, no errors and 90% achieved, found by an
 * open-loop rate search each round (the first round starts from 90% of the closed-loop peak, later rounds search
 * near the previous answer), with wrk's closed-loop peak and the load core's utilisation beside it. The headline
 * scenarios (status, json) also measure every target at the same fixed rates, a ladder below the slowest target's
 * peak ({@link #EQUAL_LOAD}), so that latency is compared at equal load even where no target holds the bound; and
 * they take the closed-loop peak with this instrument's generator as well as with wrk, so that the report can show
 * whether the two tools rank the targets alike.
 */
final class RateScenario implements Scenario {

	/** The rungs of the equal-load ladder, as fractions of the slowest target's warm-up rate. */
	static final double[] EQUAL_LOAD = { 0.25, 0.5, 0.75 };

	private final String name;

	private final Route route;

	private final double p99BoundMillis;

	private final int connections;

	private final boolean connectionPerRequest;

	private final boolean headline;

	private final Wire wire;

	/** The equal-load rates, requests per second, once calibrated; {@code null} before, or when not a headline. */
	private final double[] ladder;

	RateScenario(String name, Route route, double p99BoundMillis, int connections, boolean connectionPerRequest) {
		this(name, route, p99BoundMillis, connections, connectionPerRequest, false, null, Wire.HTTP1);
	}

	private RateScenario(String name, Route route, double p99BoundMillis, int connections,
			boolean connectionPerRequest, boolean headline, double[] ladder, Wire wire) {
		this.wire = wire;
		this.name = name;
		this.route = route;
		this.p99BoundMillis = p99BoundMillis;
		this.connections = connections;
		this.connectionPerRequest = connectionPerRequest;
		this.headline = headline;
		this.ladder = ladder;
	}

	/** A headline scenario: measured at equal load too, and with both closed-loop tools. */
	static RateScenario headline(String name, Route route, double p99BoundMillis, int connections) {
		return new RateScenario(name, route, p99BoundMillis, connections, false, true, null, Wire.HTTP1);
	}

	/** A keep-alive scenario over TLS: HTTP/1.1 on TLS 1.3, wrk and the generator both speaking it. */
	static RateScenario overTls(String name, Route route, double p99BoundMillis, int connections) {
		return new RateScenario(name, route, p99BoundMillis, connections, false, false, null, Wire.HTTPS);
	}

	@Override
	public Wire wire() {
		return this.wire;
	}

	/** @return whether this is a headline scenario (status, json) */
	boolean isHeadline() {
		return this.headline;
	}

	/** @return the equal-load rates once calibrated, else {@code null} */
	double[] ladder() {
		return (this.ladder != null) ? this.ladder.clone() : null;
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
		return (this.p99BoundMillis == 1) ? new RateScenario(this.name, this.route, bound, this.connections,
				this.connectionPerRequest, this.headline, this.ladder, this.wire) : this;
	}

	@Override
	public boolean higherIsBetter() {
		return true;
	}

	@Override
	public String figure() {
		return String.format("%s %s%s, %s: req/s with p99 <= %s ms (open loop, rate search); closed-loop peak (wrk -t1 "
				+ "-c%d) beside%s", this.route.method(), this.route.path(), this.wire.tls() ? " over TLS 1.3" : "",
				this.connectionPerRequest ? "a new connection per request" : this.connections + " keep-alive connections",
				fmt(this.p99BoundMillis), this.connections,
				this.headline ? "; and every target's latency at the same fixed rates (equal load), open loop" : "");
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
			return tls(LoadSpec.connectionPerRequest(target.process().address(), request(target), rate, warmup, window)
				.withDrainTimeout(drain));
		}
		return tls(LoadSpec.openLoop(target.process().address(), request(target), this.connections, rate, warmup,
				window).withDrainTimeout(drain));
	}

	/** @return {@code spec} on this scenario's wire: over TLS 1.3 when it is a TLS wire */
	private LoadSpec tls(LoadSpec spec) {
		return this.wire.tls() ? spec.withTls(ClientTls.resuming()) : spec;
	}

	@Override
	public WarmUp warmUp(RunContext context, RunningTarget target) {
		Settings settings = context.settings();
		WarmUp.Rule rule = WarmUp.Rule.of(settings, target.process().spec().jvm());
		context.progress().step(target.name(), 0, settings.rounds(), String.format("warming up until two %.0f s "
				+ "windows agree within %.0f%%, %.0f to %.0f s", rule.windowSeconds(), rule.tolerance() * 100,
				rule.minimumSeconds(), rule.maximumSeconds()));
		WarmUp warmUp = rule.run((seconds) -> {
			double rate = closedLoopWindow(context, target, seconds);
			context.progress().step(target.name(), 0, settings.rounds(), String.format("  %,.0f req/s", rate));
			return rate;
		});
		if (warmUp.rate() > 0) {
			// Then open loop at half that rate, so that the generator's own scheduled-send path is compiled too
			// before any trial is timed.
			int seconds = settings.quick() ? 5 : 10;
			double rate = this.connectionPerRequest ? Math.min(2_000, warmUp.rate() / 2) : warmUp.rate() / 2;
			context.generator().run(spec(context, target, rate, Duration.ZERO, Duration.ofSeconds(seconds)));
		}
		context.progress().step(target.name(), 0, settings.rounds(), "warm-up: " + warmUp.describe());
		return warmUp;
	}

	/** One window of closed-loop load: wrk when installed, else this instrument's generator. */
	private double closedLoopWindow(RunContext context, RunningTarget target, double seconds) {
		Duration window = Duration.ofMillis((long) (seconds * 1000));
		if (context.wrk().available()) {
			return context.wrk().peak(target.process().address(), this.wire, this.route, this.connections,
					(int) Math.round(seconds), this.connectionPerRequest).rate();
		}
		if (this.connectionPerRequest) {
			return context.generator().run(tls(LoadSpec.connectionPerRequest(target.process().address(),
					request(target), 2_000, Duration.ZERO, window))).achievedRate();
		}
		return context.generator().run(tls(LoadSpec.closedLoop(target.process().address(), request(target),
				this.connections, Duration.ZERO, window))).achievedRate();
	}

	@Override
	public Scenario calibrate(RunContext context, Map<String, WarmUp> warmUps) {
		if (!this.headline) {
			return this;
		}
		String slowest = null;
		double lowest = Double.MAX_VALUE;
		for (Map.Entry<String, WarmUp> entry : warmUps.entrySet()) {
			double rate = entry.getValue().rate();
			if (rate > 0 && rate < lowest) {
				lowest = rate;
				slowest = entry.getKey();
			}
		}
		if (slowest == null) {
			return this;
		}
		double[] rates = equalLoadRates(lowest);
		context.progress().line(String.format("%s: equal-load rates %s req/s (%s of %s's warm-up rate, %,.0f req/s)",
				this.name, String.join(" / ", Arrays.stream(rates).mapToObj((r) -> String.format("%,.0f", r)).toList()),
				String.join(" / ", Arrays.stream(EQUAL_LOAD).mapToObj((f) -> Math.round(f * 100) + "%").toList()),
				slowest, lowest));
		return new RateScenario(this.name, this.route, this.p99BoundMillis, this.connections,
				this.connectionPerRequest, this.headline, rates, this.wire);
	}

	/**
	 * @param slowestPeak the slowest target's closed-loop rate
	 * @return the equal-load rates: {@link #EQUAL_LOAD} of it, rounded to 100 req/s (at least 100)
	 */
	static double[] equalLoadRates(double slowestPeak) {
		double[] rates = new double[EQUAL_LOAD.length];
		for (int i = 0; i < rates.length; i++) {
			rates[i] = Math.max(100, Math.round(EQUAL_LOAD[i] * slowestPeak / 100) * 100);
		}
		return rates;
	}

	/** @return the key prefix of one rung's figures in a measurement's extras, e.g. {@code equal_load_50} */
	static String rungKey(int rung) {
		return "equal_load_" + Math.round(EQUAL_LOAD[rung] * 100);
	}

	@Override
	public double gateFigure(Measurement measurement) {
		// The throughput headline of a rate scenario is its closed-loop peak: the p99-bounded rate is 0 in any round
		// where no rate met the bound, so its spread says more about the machine's tail than about the rounds.
		return (measurement.extras().get("closed_loop_peak") instanceof Number peak) ? peak.doubleValue()
				: measurement.value();
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
		if (this.ladder != null) {
			equalLoad(context, target, round, warmup, window, extras);
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

	/**
	 * One open-loop trial at each equal-load rate: p50, p99 and p99.9 from the intended send times, errors and the
	 * rate achieved, under {@link #rungKey}.
	 */
	private void equalLoad(RunContext context, RunningTarget target, int round, Duration warmup, Duration window,
			Map<String, Object> extras) {
		for (int rung = 0; rung < this.ladder.length; rung++) {
			double rate = this.ladder[rung];
			LoadResult result = context.generator().run(spec(context, target, rate, warmup, window));
			String key = rungKey(rung);
			extras.put(key + "_rate", rate);
			extras.put(key + "_p50_ms", ms(result.percentileMillis(50)));
			extras.put(key + "_p99_ms", ms(result.percentileMillis(99)));
			extras.put(key + "_p999_ms", ms(result.percentileMillis(99.9)));
			extras.put(key + "_achieved", round1(result.achievedRate()));
			extras.put(key + "_errors", result.errors());
			context.progress().step(target.name(), round, context.settings().rounds(), String.format(
					"  equal load %,.0f req/s: p50 %.3f p99 %.3f p99.9 %.3f ms, achieved %,.0f, %d errors", rate,
					result.percentileMillis(50), result.percentileMillis(99), result.percentileMillis(99.9),
					result.achievedRate(), result.errors()));
		}
	}

	private static double ms(double millis) {
		return Math.round(millis * 1000) / 1000.0;
	}

	private double closedLoopPeak(RunContext context, RunningTarget target, int round, Map<String, Object> extras) {
		Settings settings = context.settings();
		CoreUsage load = CoreUsage.start(settings.loadCore());
		double peak;
		if (context.wrk().available()) {
			Wrk.Peak result = context.wrk().peak(target.process().address(), this.wire, this.route, this.connections,
					settings.peakSeconds(), this.connectionPerRequest);
			peak = result.rate();
			if (!result.errors().isEmpty()) {
				extras.put("closed_loop_errors", result.errors());
			}
			extras.put("closed_loop_tool", "wrk");
		}
		else {
			LoadResult result = context.generator().run(tls(LoadSpec.closedLoop(target.process().address(),
					request(target), this.connections, Duration.ZERO, Duration.ofSeconds(settings.peakSeconds()))));
			peak = result.achievedRate();
			extras.put("closed_loop_tool", "khamsin-benchmark closed loop (wrk not installed)");
		}
		extras.put("closed_loop_peak", Math.round(peak));
		extras.put("closed_loop_load_cpu_pct", round1(load.busyPercent()));
		context.progress().step(target.name(), round, settings.rounds(),
				String.format("closed-loop peak %,.0f req/s (load core %.0f%%)", peak, load.busyPercent()));
		if (this.headline && context.wrk().available()) {
			LoadResult own = context.generator().run(tls(LoadSpec.closedLoop(target.process().address(),
					request(target), this.connections, Duration.ZERO, Duration.ofSeconds(settings.peakSeconds()))));
			extras.put("closed_loop_peak_generator", Math.round(own.achievedRate()));
			context.progress().step(target.name(), round, settings.rounds(),
					String.format("closed-loop peak by the generator %,.0f req/s", own.achievedRate()));
		}
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
