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

import io.khamsin.benchmark.report.SummaryRow;
import io.khamsin.benchmark.scenario.Measurement;
import io.khamsin.benchmark.scenario.RunContext;
import io.khamsin.benchmark.scenario.Scenario;
import io.khamsin.benchmark.scenario.Scenario.RunningTarget;
import io.khamsin.benchmark.scenario.Scenarios;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;

/**
 * Runs scenarios over targets, interleaved per round (A B C A B C ...), and keeps every round's measurement and
 * every exclusion with its reason. Targets of a scenario that measures running servers are started once, checked
 * and warmed, then measured round after round; the others start a fresh process per target and round.
 */
final class Campaign {

	static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

	private final RunContext context;

	private final List<TargetSpec> targets;

	/** scenario -> target -> round measurements. */
	final Map<String, Map<String, List<Measurement>>> results = new LinkedHashMap<>();

	/** scenario -> target -> why it was excluded. */
	final Map<String, Map<String, String>> excluded = new LinkedHashMap<>();

	/** scenario -> target -> route -> integrity outcome. */
	final Map<String, Map<String, Map<String, Object>>> integrity = new LinkedHashMap<>();

	Campaign(RunContext context, List<TargetSpec> targets) {
		this.context = context;
		this.targets = targets;
	}

	void run(Scenario scenario) {
		this.context.progress().scenario(scenario.name());
		this.results.put(scenario.name(), new LinkedHashMap<>());
		this.excluded.put(scenario.name(), new LinkedHashMap<>());
		this.integrity.put(scenario.name(), new LinkedHashMap<>());
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
				exclude(scenario, target.name(), "does not apply");
			}
		}
		if (scenario.restartsPerRound()) {
			runFresh(scenario, applicable);
		}
		else {
			runWarm(scenario, applicable);
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
			for (RunningTarget target : new ArrayList<>(running)) {
				try {
					target.process().resume();
					scenario.warmUp(this.context, target);
					target.process().pause();
				}
				catch (RuntimeException ex) {
					running.remove(target);
					target.process().close();
					exclude(scenario, target.name(), "warm-up failed: " + ex.getMessage());
				}
			}
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
							measurement = scenario.measure(this.context, target, round, previous.get(target.name()));
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
		}
		finally {
			for (RunningTarget target : running) {
				target.process().close();
			}
		}
	}

	private RunningTarget startAndCheck(Scenario scenario, TargetSpec target) {
		int rounds = this.context.settings().rounds();
		TargetProcess process = this.context.launch(target, List.of());
		try {
			double millis = process.awaitFirstAnswer(180);
			this.context.progress().step(target.name(), 0, rounds, String.format("started in %.0f ms", millis));
			Map<String, Long> lengths = new LinkedHashMap<>();
			Map<String, Object> checks = new LinkedHashMap<>();
			this.integrity.get(scenario.name()).put(target.name(), checks);
			IntegrityCheck check = new IntegrityCheck();
			for (Route route : scenario.routes()) {
				IntegrityCheck.Result result = check.check(process.address(), route);
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
			this.context.progress().step(target.name(), 0, rounds, "integrity check passed");
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
		Path raw = this.context.runDir().resolve("raw").resolve(scenario.name()).resolve(target + "-round" + round + ".json");
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("scenario", scenario.name());
		document.put("target", target);
		document.put("round", round);
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
			rows.add(SummaryRow.of(scenario.name(), target.name(), scenario.unit(), scenario.higherIsBetter(),
					rounds.stream().map(Measurement::value).toList(), rounds.stream().map(Measurement::p50Ms).toList(),
					rounds.stream().map(Measurement::p99Ms).toList(), rounds.stream().map(Measurement::note).toList(),
					rounds.stream().map(Measurement::extras).toList()));
		}
		return rows;
	}

}
