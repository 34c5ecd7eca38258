package io.khamsin.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.khamsin.benchmark.os.TransportProbe;
import io.khamsin.benchmark.report.MarkdownReport;
import io.khamsin.benchmark.report.SummaryRow;
import io.khamsin.benchmark.scenario.Measurement;
import io.khamsin.benchmark.scenario.RunContext;
import io.khamsin.benchmark.scenario.Scenario;
import io.khamsin.benchmark.scenario.Scenario.RunningTarget;
import io.khamsin.benchmark.scenario.Scenarios;
import io.khamsin.benchmark.scenario.WarmUp;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;

/**
 * Runs scenarios over targets, interleaved per round (A B C A B C ...), and keeps every round's measurement and
 * every exclusion with its reason. Targets of a scenario that measures running servers are started once, checked
 * (their answers, and the I/O transport they run on) and warmed until steady, then measured round after round; the
 * others start a fresh process per target and round. A target whose rounds spread over {@link #RERUN_SPREAD_PCT}
 * has its farthest round run again, up to {@link #MAX_RERUNS} times ({@code --max-reruns}), and the report says so.
 */
final class Campaign {

	static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

	/** A target whose rounds spread over this, in percent ((max - min) / median), has a round run again. */
	static final double RERUN_SPREAD_PCT = 10;

	/** How many times at most one target's rounds of one scenario are run again. */
	static final int MAX_RERUNS = 2;

	private final RunContext context;

	private final List<TargetSpec> targets;

	/** scenario -> target -> round measurements. */
	final Map<String, Map<String, List<Measurement>>> results = new LinkedHashMap<>();

	/** scenario -> target -> why it was excluded. */
	final Map<String, Map<String, String>> excluded = new LinkedHashMap<>();

	/** scenario -> target -> route -> integrity outcome. */
	final Map<String, Map<String, Map<String, Object>>> integrity = new LinkedHashMap<>();

	/** scenario -> target -> its warm-up. */
	final Map<String, Map<String, WarmUp>> warmUps = new LinkedHashMap<>();

	/** scenario -> target -> the rounds run again, each as "round N: first, then again". */
	final Map<String, Map<String, List<String>>> reruns = new LinkedHashMap<>();

	/** scenario -> target -> the I/O transport it was seen running on (a target may run on another per scenario). */
	final Map<String, Map<String, String>> transports = new LinkedHashMap<>();

	/**
	 * @param target a target's name
	 * @return the transports it was seen running on, each with the scenarios it ran them in when there were several,
	 * or "not started"
	 */
	String transportsOf(String target) {
		Map<String, List<String>> scenarios = new LinkedHashMap<>();
		this.transports.forEach((scenario, seen) -> {
			String transport = seen.get(target);
			if (transport != null) {
				scenarios.computeIfAbsent(transport, (name) -> new ArrayList<>()).add(scenario);
			}
		});
		if (scenarios.isEmpty()) {
			return "not started";
		}
		if (scenarios.size() == 1) {
			return scenarios.keySet().iterator().next();
		}
		List<String> each = new ArrayList<>();
		scenarios.forEach((transport, where) -> each.add(transport + " (" + String.join(", ", where) + ")"));
		return String.join("; ", each);
	}

	/** scenario -> the scenario as measured (calibrated once every target was warm). */
	final Map<String, Scenario> measured = new LinkedHashMap<>();

	/** How many times at most a target's farthest round is run again ({@code --max-reruns}). */
	private final int maxReruns;

	Campaign(RunContext context, List<TargetSpec> targets, int maxReruns) {
		this.context = context;
		this.targets = targets;
		this.maxReruns = maxReruns;
	}

	void run(Scenario scenario) {
		this.context.progress().scenario(scenario.name());
		this.results.put(scenario.name(), new LinkedHashMap<>());
		this.excluded.put(scenario.name(), new LinkedHashMap<>());
		this.integrity.put(scenario.name(), new LinkedHashMap<>());
		this.warmUps.put(scenario.name(), new LinkedHashMap<>());
		this.reruns.put(scenario.name(), new LinkedHashMap<>());
		this.measured.put(scenario.name(), scenario);
		List<TargetSpec> applicable = new ArrayList<>();
		for (TargetSpec target : this.targets) {
			if (!target.runsIn(scenario.name())) {
				exclude(scenario, target.name(), "measured only in " + String.join(", ", target.scenarios().stream()
					.filter(Scenarios.names()::contains).sorted(Comparator.comparing(Scenarios.names()::indexOf)).toList()));
			}
			else if (scenario.appliesTo(target)) {
				applicable.add(target);
			}
			else {
				exclude(scenario, target.name(), target.wires().contains(scenario.wire()) ? "does not apply"
						: "does not apply: not launched on " + scenario.wire() + " here");
			}
		}
		try {
			if (scenario.restartsPerRound()) {
				runFresh(scenario, applicable);
			}
			else {
				runWarm(scenario, applicable);
			}
		}
		finally {
			scenario.finish();
		}
	}

	private void runFresh(Scenario scenario, List<TargetSpec> applicable) {
		List<TargetSpec> remaining = new ArrayList<>(applicable);
		int rounds = this.context.settings().rounds();
		for (int round = 1; round <= rounds; round++) {
			for (TargetSpec target : new ArrayList<>(remaining)) {
				try {
					record(scenario, target.name(), round, scenario.measureFresh(this.context, target, round));
				}
				catch (RuntimeException ex) {
					remaining.remove(target);
					exclude(scenario, target.name(), "round " + round + ": " + ex.getMessage());
				}
			}
		}
		for (TargetSpec target : remaining) {
			rerunSpread(scenario, target.name(), (round, previous) -> scenario.measureFresh(this.context, target, round));
		}
	}

	/**
	 * While the rounds of {@code target} spread over {@link #RERUN_SPREAD_PCT}, run the round farthest from their
	 * median again (at most {@code --max-reruns} times, {@link #MAX_RERUNS} by default) and keep the new figure in its place; both stay in the raw
	 * results and the report lists each re-run.
	 */
	private void rerunSpread(Scenario scenario, String target, RoundMeasurer measurer) {
		List<Measurement> rounds = this.results.get(scenario.name()).get(target);
		if (rounds == null || rounds.size() < 2) {
			return;
		}
		for (int rerun = 1; rerun <= this.maxReruns; rerun++) {
			List<Double> figures = rounds.stream().map(scenario::gateFigure).toList();
			int farthest = farthestFromMedian(figures, RERUN_SPREAD_PCT);
			if (farthest < 0) {
				return;
			}
			int round = farthest + 1;
			this.context.progress().step(target, round, this.context.settings().rounds(), String.format(
					"spread %.0f%% over %.0f%%: round %d (%s) again", SummaryRow.spreadPct(figures), RERUN_SPREAD_PCT, round,
					MarkdownReport.number(figures.get(farthest))));
			Measurement again;
			try {
				again = measurer.measure(round, rounds.get(farthest));
			}
			catch (RuntimeException ex) {
				this.context.progress().step(target, round, this.context.settings().rounds(),
						"re-run failed, the first figure stands: " + ex.getMessage());
				return;
			}
			rounds.set(farthest, again);
			write(scenario, target, round, rerun, again);
			this.reruns.get(scenario.name()).computeIfAbsent(target, (t) -> new ArrayList<>()).add("round " + round
					+ ": " + MarkdownReport.number(figures.get(farthest)) + ", then "
					+ MarkdownReport.number(scenario.gateFigure(again)));
		}
	}

	/**
	 * @param figures one figure per round
	 * @param limitPct the spread above which a round is run again
	 * @return the index of the figure farthest from the median when the spread is over {@code limitPct}, else -1
	 */
	static int farthestFromMedian(List<Double> figures, double limitPct) {
		if (figures.size() < 2 || SummaryRow.spreadPct(figures) <= limitPct) {
			return -1;
		}
		double median = SummaryRow.median(figures);
		int farthest = 0;
		for (int i = 1; i < figures.size(); i++) {
			if (Math.abs(figures.get(i) - median) > Math.abs(figures.get(farthest) - median)) {
				farthest = i;
			}
		}
		return farthest;
	}

	/** Measures one round of one target again. */
	@FunctionalInterface
	private interface RoundMeasurer {

		Measurement measure(int round, Measurement previous);

	}

	private void runWarm(Scenario scenario, List<TargetSpec> applicable) {
		int rounds = this.context.settings().rounds();
		List<RunningTarget> running = new ArrayList<>();
		try {
			for (TargetSpec target : applicable) {
				RunningTarget started = startAndCheck(scenario, target);
				if (started != null) {
					running.add(started);
				}
			}
			running.forEach((target) -> target.process().pause());
			Map<String, WarmUp> warm = this.warmUps.get(scenario.name());
			for (RunningTarget target : new ArrayList<>(running)) {
				try {
					target.process().resume();
					warm.put(target.name(), scenario.warmUp(this.context, target));
					target.process().pause();
				}
				catch (RuntimeException ex) {
					running.remove(target);
					warm.remove(target.name());
					target.process().close();
					exclude(scenario, target.name(), "warm-up failed: " + ex.getMessage());
				}
			}
			Scenario calibrated = scenario.calibrate(this.context, warm);
			this.measured.put(scenario.name(), calibrated);
			Map<String, Measurement> previous = new LinkedHashMap<>();
			for (int round = 1; round <= rounds; round++) {
				// Every other round runs the targets in reverse, so that no target always follows the same one or
				// always comes first after the warm-ups: paired rounds then carry no order effect.
				List<RunningTarget> order = new ArrayList<>(running);
				if (round % 2 == 0) {
					Collections.reverse(order);
				}
				for (RunningTarget target : order) {
					try {
						if (!target.process().isAlive()) {
							throw new IllegalStateException("the process exited");
						}
						// Only the target being measured runs; the others are frozen (SIGSTOP) meanwhile.
						target.process().resume();
						Measurement measurement;
						try {
							measurement = calibrated.measure(this.context, target, round, previous.get(target.name()));
						}
						finally {
							target.process().pause();
						}
						previous.put(target.name(), measurement);
						record(scenario, target.name(), round, measurement);
					}
					catch (RuntimeException ex) {
						running.remove(target);
						target.process().close();
						exclude(scenario, target.name(), "round " + round + ": " + ex.getMessage());
					}
				}
			}
			for (RunningTarget target : running) {
				rerunSpread(calibrated, target.name(), (round, before) -> {
					target.process().resume();
					try {
						return calibrated.measure(this.context, target, round, before);
					}
					finally {
						target.process().pause();
					}
				});
			}
		}
		finally {
			for (RunningTarget target : running) {
				target.process().close();
			}
		}
	}

	private RunningTarget startAndCheck(Scenario scenario, TargetSpec target) {
		int rounds = this.context.settings().rounds();
		TargetProcess process = this.context.launch(target, scenario.wire(), List.of());
		try {
			double millis = process.awaitFirstAnswer(180);
			this.context.progress().step(target.name(), 0, rounds, String.format("started in %.0f ms", millis));
			Map<String, Long> lengths = new LinkedHashMap<>();
			Map<String, Object> checks = new LinkedHashMap<>();
			this.integrity.get(scenario.name()).put(target.name(), checks);
			IntegrityCheck check = new IntegrityCheck();
			for (Route route : scenario.routes()) {
				IntegrityCheck.Result result = check.check(process.address(), route, scenario.wire());
				checks.put(route.name(), Map.of("passed", result.passed(), "reason",
						(result.reason() != null) ? result.reason() : "", "body_bytes", result.bodyLength()));
				if (!result.passed()) {
					this.context.progress().step(target.name(), 0, rounds, "integrity check FAILED: " + result.reason());
					exclude(scenario, target.name(), "integrity check: " + result.reason());
					process.close();
					return null;
				}
				lengths.put(route.name(), result.bodyLength());
			}
			String transport = TransportProbe.of(process.pid(), target.jvm());
			this.transports.computeIfAbsent(scenario.name(), (name) -> new LinkedHashMap<>()).put(target.name(), transport);
			checks.put("transport", transport);
			if (target.transport() != null && !target.transport().equals(transport)) {
				String why = "runs on " + transport + ", not on " + target.transport() + " as it should";
				this.context.progress().step(target.name(), 0, rounds, "integrity check FAILED: " + why);
				exclude(scenario, target.name(), "integrity check: " + why);
				process.close();
				return null;
			}
			this.context.progress().step(target.name(), 0, rounds, "integrity check passed; transport " + transport);
			return new RunningTarget(process, lengths);
		}
		catch (RuntimeException ex) {
			process.close();
			exclude(scenario, target.name(), ex.getMessage());
			return null;
		}
	}

	private void record(Scenario scenario, String target, int round, Measurement measurement) {
		this.results.get(scenario.name()).computeIfAbsent(target, (t) -> new ArrayList<>()).add(measurement);
		write(scenario, target, round, 0, measurement);
	}

	/** Write one round's raw results: {@code <target>-round<N>.json}, or {@code -round<N>-rerun<K>.json}. */
	private void write(Scenario scenario, String target, int round, int rerun, Measurement measurement) {
		Path raw = this.context.runDir().resolve("raw").resolve(scenario.name())
			.resolve(target + "-round" + round + ((rerun > 0) ? "-rerun" + rerun : "") + ".json");
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("scenario", scenario.name());
		document.put("target", target);
		document.put("round", round);
		if (rerun > 0) {
			document.put("rerun", rerun);
		}
		document.put("value", measurement.value());
		document.put("unit", scenario.unit());
		document.put("p50_ms", measurement.p50Ms());
		document.put("p99_ms", measurement.p99Ms());
		document.put("note", measurement.note());
		document.put("extras", measurement.extras());
		document.put("trials", measurement.raw());
		try {
			Files.createDirectories(raw.getParent());
			JSON.writeValue(raw.toFile(), document);
		}
		catch (IOException ex) {
			this.context.progress().line("cannot write " + raw + ": " + ex.getMessage());
		}
	}

	private void exclude(Scenario scenario, String target, String reason) {
		this.excluded.get(scenario.name()).put(target, reason);
		this.context.progress().step(target, 0, this.context.settings().rounds(), "EXCLUDED: " + reason);
	}

	/** @return the rows of a scenario, targets in campaign order; a target excluded mid-way keeps no row */
	List<SummaryRow> rows(Scenario scenario) {
		List<SummaryRow> rows = new ArrayList<>();
		Map<String, List<Measurement>> byTarget = this.results.getOrDefault(scenario.name(), Map.of());
		for (TargetSpec target : this.targets) {
			List<Measurement> rounds = byTarget.get(target.name());
			if (rounds == null || rounds.isEmpty() || this.excluded.get(scenario.name()).containsKey(target.name())) {
				continue;
			}
			SummaryRow row = SummaryRow.of(scenario.name(), target.name(), scenario.unit(), scenario.higherIsBetter(),
					rounds.stream().map(Measurement::value).toList(), rounds.stream().map(Measurement::p50Ms).toList(),
					rounds.stream().map(Measurement::p99Ms).toList(), rounds.stream().map(Measurement::note).toList(),
					rounds.stream().map(Measurement::extras).toList());
			WarmUp warmUp = this.warmUps.getOrDefault(scenario.name(), Map.of()).get(target.name());
			if (warmUp != null && warmUp.rule() != null) {
				row.extras().put("warmup_s", warmUp.seconds());
				row.extras().put("warmup_steady", warmUp.steady());
			}
			String transport = this.transports.getOrDefault(scenario.name(), Map.of()).get(target.name());
			if (transport != null) {
				row.extras().put("transport", transport);
			}
			List<String> again = this.reruns.getOrDefault(scenario.name(), Map.of()).get(target.name());
			if (again != null) {
				row.extras().put("reruns", again);
			}
			rows.add(row);
		}
		return rows;
	}

}
