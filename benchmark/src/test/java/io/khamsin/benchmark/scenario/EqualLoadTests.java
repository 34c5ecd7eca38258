package io.khamsin.benchmark.scenario;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class EqualLoadTests {

	@Test
	void theLadderIsAQuarterHalfAndThreeQuartersOfTheSlowestTargetsWarmUpRate(@TempDir Path dir) throws Exception {
		Map<String, WarmUp> warmUps = new LinkedHashMap<>();
		warmUps.put("khamsin", warmUp(48_634));
		warmUps.put("reactor-netty", warmUp(31_764));
		warmUps.put("tomcat", warmUp(10_930));
		warmUps.put("nginx", warmUp(71_578));
		warmUps.put("broken", WarmUp.NONE);

		try (Progress progress = new Progress(new PrintStream(PrintStream.nullOutputStream()), dir.resolve("run.log"))) {
			Scenario status = Scenarios.named("status", 5).calibrate(context(progress, dir), warmUps);

			assertThat(Scenarios.equalLoad(status)).containsExactly(Map.entry("equal_load_25", 2_700.0),
					Map.entry("equal_load_50", 5_500.0), Map.entry("equal_load_75", 8_200.0));
			assertThat(status.figure()).contains("p99 <= 5 ms").contains("equal load");
		}
		assertThat(dir.resolve("run.log")).content().contains("status: equal-load rates 2,700 / 5,500 / 8,200 req/s "
				+ "(25% / 50% / 75% of tomcat's warm-up rate, 10,930 req/s)");
	}

	@Test
	void onlyTheHeadlineScenariosAreMeasuredAtEqualLoad(@TempDir Path dir) throws Exception {
		Map<String, WarmUp> warmUps = Map.of("khamsin", warmUp(10_000));
		try (Progress progress = new Progress(new PrintStream(PrintStream.nullOutputStream()), dir.resolve("run.log"))) {
			for (String name : List.of("new-connection", "download-64k", "cpu-fixed-rate", "idle-10k")) {
				assertThat(Scenarios.equalLoad(Scenarios.named(name).calibrate(context(progress, dir), warmUps)))
					.as(name).isEmpty();
			}
			assertThat(Scenarios.equalLoad(Scenarios.named("json").calibrate(context(progress, dir), warmUps)))
				.hasSize(3);
		}
	}

	@Test
	void aLadderRungIsNeverBelowOneHundredRequestsPerSecond() {
		assertThat(RateScenario.equalLoadRates(120)).containsExactly(100, 100, 100);
	}

	@Test
	void theRateScenariosRunARoundAgainByTheirClosedLoopPeak() {
		Scenario status = Scenarios.named("status");
		Measurement round = new Measurement(0, null, null, "no rate tried met p99 <= 1 ms",
				Map.of("closed_loop_peak", 40_000L), List.of());

		assertThat(status.gateFigure(round)).isEqualTo(40_000);
		assertThat(Scenarios.named("startup").gateFigure(Measurement.of(812, "", Map.of(), List.of()))).isEqualTo(812);
	}

	private static WarmUp warmUp(double rate) {
		return new WarmUp(60, List.of(rate, rate), true, WarmUp.Rule.of(Settings.full(3), true));
	}

	private static RunContext context(Progress progress, Path dir) {
		return new RunContext(Settings.full(3), null, null, progress, dir, dir, List.of(), new RunContext.Ports(), null);
	}

}
