package io.khamsin.benchmark.scenario;

import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;

/**
 * {@code startup}: from process start to the first answered {@code GET /plaintext}, polled every 5 ms. Each round
 * starts a fresh process.
 */
final class StartupScenario implements Scenario {

	@Override
	public String name() {
		return "startup";
	}

	@Override
	public String unit() {
		return "ms";
	}

	@Override
	public boolean higherIsBetter() {
		return false;
	}

	@Override
	public String figure() {
		return "process start (pinned to the server core) to the first answered GET /plaintext";
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
		try (TargetProcess process = context.launch(target, List.of())) {
			double millis = process.awaitFirstAnswer(120);
			context.progress().step(target.name(), round, context.settings().rounds(),
					String.format("first answer after %.0f ms", millis));
			return Measurement.of(millis, "", Map.of(), Map.of("ms", millis));
		}
	}

}
