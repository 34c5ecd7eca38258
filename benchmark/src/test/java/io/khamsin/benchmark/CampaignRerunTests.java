package io.khamsin.benchmark;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.benchmark.report.SummaryRow;
import io.khamsin.benchmark.scenario.Measurement;
import io.khamsin.benchmark.scenario.Progress;
import io.khamsin.benchmark.scenario.RunContext;
import io.khamsin.benchmark.scenario.Scenario;
import io.khamsin.benchmark.scenario.Settings;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetSpec;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignRerunTests {

	@Test
	void aRoundFarFromTheOthersIsRunAgainAndTheReportKeepsBothFigures(@TempDir Path dir) throws Exception {
		Scripted scenario = new Scripted(Map.of("steady", List.of(100.0, 102.0, 101.0),
				"noisy", List.of(100.0, 150.0, 104.0, 103.0)));

		Campaign campaign = run(scenario, dir, "steady", "noisy");

		assertThat(campaign.results.get("scripted").get("steady")).extracting(Measurement::value)
			.containsExactly(100.0, 102.0, 101.0);
		assertThat(campaign.results.get("scripted").get("noisy")).extracting(Measurement::value)
			.containsExactly(100.0, 103.0, 104.0);
		assertThat(campaign.reruns.get("scripted")).containsOnlyKeys("noisy");
		assertThat(campaign.reruns.get("scripted").get("noisy")).containsExactly("round 2: 150, then 103");
		assertThat(dir.resolve("raw/scripted/noisy-round2.json")).content().contains("\"value\" : 150.0");
		assertThat(dir.resolve("raw/scripted/noisy-round2-rerun1.json")).content().contains("\"value\" : 103.0")
			.contains("\"rerun\" : 1");
		SummaryRow noisy = campaign.rows(scenario).get(1);
		assertThat(noisy.extras()).containsEntry("reruns", List.of("round 2: 150, then 103"));
	}

	@Test
	void aTargetIsRunAgainTwiceAtMostThenItsSpreadStands(@TempDir Path dir) throws Exception {
		Scripted scenario = new Scripted(Map.of("wild", List.of(100.0, 200.0, 100.0, 300.0, 400.0, 500.0)));

		Campaign campaign = run(scenario, dir, "wild");

		assertThat(campaign.reruns.get("scripted").get("wild")).hasSize(Campaign.MAX_RERUNS);
		assertThat(scenario.remaining("wild")).containsExactly(500.0);
	}

	@Test
	void theRoundFarthestFromTheMedianGoesOnlyWhenTheSpreadIsOverTheLimit() {
		assertThat(Campaign.farthestFromMedian(List.of(100.0, 109.0, 104.0), 10)).isEqualTo(-1);
		assertThat(Campaign.farthestFromMedian(List.of(100.0, 112.0, 104.0), 10)).isEqualTo(1);
		assertThat(Campaign.farthestFromMedian(List.of(80.0, 100.0, 104.0), 10)).isEqualTo(0);
		assertThat(Campaign.farthestFromMedian(List.of(100.0), 10)).isEqualTo(-1);
	}

	private static Campaign run(Scenario scenario, Path dir, String... targets) throws Exception {
		try (Progress progress = new Progress(new PrintStream(PrintStream.nullOutputStream()), dir.resolve("run.log"))) {
			RunContext context = new RunContext(Settings.full(3), null, null, progress, dir, dir, List.of(),
					new RunContext.Ports(), null);
			Campaign campaign = new Campaign(context, java.util.Arrays.stream(targets)
				.map((name) -> new TargetSpec(name, false, (launch) -> List.of("true"), name, "", Set.of()))
				.toList(), Campaign.MAX_RERUNS);
			campaign.run(scenario);
			return campaign;
		}
	}

	/** A scenario that starts nothing and answers each round from a script. */
	private static final class Scripted implements Scenario {

		private final Map<String, Deque<Double>> figures = new java.util.HashMap<>();

		Scripted(Map<String, List<Double>> figures) {
			figures.forEach((target, values) -> this.figures.put(target, new ArrayDeque<>(values)));
		}

		List<Double> remaining(String target) {
			return List.copyOf(this.figures.get(target));
		}

		@Override
		public String name() {
			return "scripted";
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
			return "a script";
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
			return Measurement.of(this.figures.get(target.name()).removeFirst(), "", Map.of(), List.of());
		}

	}

}
