package io.khamsin.benchmark.scenario;

import java.util.Map;

import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.TargetProcess;

/**
 * {@code startup}: from process start to the first answered {@code GET /plaintext}, polled every 5 ms. Each round
 * starts a fresh process.
 */
final class StartupScenario extends FreshProcessScenario {

	@Override
	public String name() {
		return "startup";
	}

	@Override
	public String unit() {
		return "ms";
	}

	@Override
	public String figure() {
		return "process start (pinned to the server core) to the first answered GET /plaintext";
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		step(context, process, round, String.format("first answer after %.0f ms", startMillis));
		return Measurement.of(startMillis, "", Map.of(), Map.of("ms", startMillis));
	}

}
