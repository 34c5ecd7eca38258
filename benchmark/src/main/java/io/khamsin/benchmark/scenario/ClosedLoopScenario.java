package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;

/**
 * A scenario whose generator runs closed loop on the status route for a given time and reports one rate, requests
 * per second (h2load for HTTP/2, the two HTTP/3 generators): warm-up windows until the rate is steady, then each
 * round one run of the campaign's peak length with the load and server cores' use beside it; a run with failures or
 * other errors counts 0, with the reason as its note.
 */
abstract class ClosedLoopScenario implements Scenario {

	/**
	 * What one run of a generator measured.
	 * @param rate successful requests per second
	 * @param errors what went wrong, empty for nothing
	 * @param protocol the protocol spoken
	 * @param counts the generator's counts of what went wrong (failed requests, non-2xx answers), for the report
	 * @param generator the generator's name, the key of its output in the raw results
	 * @param output the generator's own summary of the run
	 */
	record Run(double rate, String errors, String protocol, Map<String, Object> counts, String generator,
			String output) {

		Run {
			counts = new LinkedHashMap<>(counts);
		}

	}

	/**
	 * Run the generator once against a target.
	 * @param seconds how long
	 * @return what it measured
	 */
	protected abstract Run load(RunContext context, RunningTarget target, int seconds);

	@Override
	public final String unit() {
		return "req/s";
	}

	@Override
	public final boolean higherIsBetter() {
		return true;
	}

	@Override
	public final List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	@Override
	public final WarmUp warmUp(RunContext context, RunningTarget target) {
		Settings settings = context.settings();
		WarmUp.Rule rule = WarmUp.Rule.of(settings, target.process().spec().jvm());
		WarmUp warmUp = rule.run((seconds) -> {
			Run run = load(context, target, (int) Math.round(seconds));
			context.progress().step(target.name(), 0, settings.rounds(), String.format("  %,.0f req/s%s", run.rate(),
					run.errors().isEmpty() ? "" : " (" + run.errors() + ")"));
			return run.rate();
		});
		context.progress().step(target.name(), 0, settings.rounds(), "warm-up: " + warmUp.describe());
		return warmUp;
	}

	@Override
	public final Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		Settings settings = context.settings();
		CoreUsage loadCore = CoreUsage.start(settings.loadCore());
		CoreUsage serverCore = CoreUsage.start(settings.serverCore());
		Run run = load(context, target, settings.peakSeconds());
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("load_cpu_pct", RateScenario.round1(loadCore.busyPercent()));
		extras.put("server_cpu_pct", RateScenario.round1(serverCore.busyPercent()));
		extras.putAll(run.counts());
		extras.put("protocol", run.protocol());
		String note = run.errors();
		context.progress().step(target.name(), round, settings.rounds(), String.format("%,.0f req/s over %s%s",
				run.rate(), run.protocol(), note.isEmpty() ? "" : " (" + note + ")"));
		return Measurement.of(note.isEmpty() ? run.rate() : 0, note, extras, Map.of(run.generator(), run.output()));
	}

}
