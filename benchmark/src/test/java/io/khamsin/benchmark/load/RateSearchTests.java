package io.khamsin.benchmark.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.testserver.FakeServer;

import static org.assertj.core.api.Assertions.assertThat;

class RateSearchTests {

	@Test
	void bracketsAndBisectsTowardsTheKnownCapacity() {
		double capacity = 23_000;
		RateSearch search = new RateSearch((rate) -> modelled(rate, capacity), 1.0, (step) -> {
		});

		RateSearch.Outcome outcome = search.search(5_000, 12);

		assertThat(outcome.rate()).isBetween(capacity * 0.97, capacity);
		assertThat(outcome.steps()).hasSize(12);
	}

	@Test
	void aFirstGuessAboveCapacityIsHalvedUntilATrialPasses() {
		RateSearch search = new RateSearch((rate) -> modelled(rate, 1_000), 1.0, (step) -> {
		});

		RateSearch.Outcome outcome = search.search(100_000, 12);

		assertThat(outcome.rate()).isBetween(900.0, 1_000.0);
		assertThat(outcome.steps().get(0).reason()).contains("achieved 1000/s");
	}

	@Test
	void aTrialThatKeptUpButStalledOnceIsRepeatedBeforeItsRateCountsAsFailed() {
		int[] stalls = { 1 };
		RateSearch search = new RateSearch((rate) -> (stalls[0]-- > 0) ? result(rate, rate, 0, 50) : modelled(rate, 1_000),
				1.0, (step) -> {
				});

		RateSearch.Outcome outcome = search.search(900, 2, 1.05, 0.9);

		assertThat(outcome.rate()).isEqualTo(900);
		assertThat(outcome.steps()).extracting(RateSearch.Step::rate).containsExactly(900.0, 900.0);
		assertThat(outcome.steps()).extracting(RateSearch.Step::repeat).containsExactly(false, true);
	}

	@Test
	void aRateThatFailsItsRepeatTooCountsAsFailedAndAShortfallIsNotRepeated() {
		RateSearch search = new RateSearch((rate) -> (rate > 850) ? result(rate, rate, 0, 50) : modelled(rate, 1_000),
				1.0, (step) -> {
				});

		RateSearch.Outcome outcome = search.search(900, 4, 1.05, 0.9);

		assertThat(outcome.steps()).extracting(RateSearch.Step::rate).containsExactly(900.0, 900.0, 810.0, 855.0);
		assertThat(outcome.rate()).isEqualTo(810);
		RateSearch shortfalls = new RateSearch((rate) -> modelled(rate, 1_000), 1.0, (step) -> {
		});
		assertThat(shortfalls.search(4_000, 3).steps()).extracting(RateSearch.Step::rate)
			.containsExactly(4_000.0, 2_000.0, 1_000.0);
	}

	@Test
	void errorsAndAShortfallOfTheOfferedRateFailATrialWhateverItsLatency() {
		RateSearch search = new RateSearch((rate) -> null, 1.0, (step) -> {
		});

		assertThat(search.verdict(result(1000, 1000, 1, 0.1))).startsWith("1 errors");
		assertThat(search.verdict(result(1000, 880, 0, 0.1))).contains("under 90% of 1000/s");
		assertThat(search.verdict(result(1000, 990, 0, 0.1))).isNull();
	}

	@Test
	void findsTheCapacityOfARealServerOverTheOpenLoopGenerator() {
		// A low capacity (2 ms per request) and a bound of 50 service times keep the verdicts clear of the noise
		// of a shared machine: one second 10% over capacity queues 100 ms of work.
		double capacity = 500;
		List<String> log = new ArrayList<>();
		try (FakeServer server = FakeServer.withCapacity("Hello, World!", capacity);
				LoadGenerator generator = new LoadGenerator()) {
			LoadSpec spec = LoadSpec.openLoop(server.address(), RequestTemplate.get("/plaintext", 13), 4, 1,
					Duration.ofMillis(200), Duration.ofSeconds(1));
			RateSearch search = new RateSearch((rate) -> generator.run(spec.withRate(rate)), 100.0,
					(step) -> log.add(step.rate() + " " + step.passed() + " " + step.result().describe()));

			RateSearch.Outcome outcome = search.search(300, 7);

			assertThat(outcome.rate()).as(String.join("\n", log)).isBetween(capacity * 0.7, capacity * 1.15);
		}
	}

	private static LoadResult modelled(double rate, double capacity) {
		return result(rate, Math.min(rate, capacity), 0, (rate <= capacity) ? 0.2 : 50);
	}

	private static LoadResult result(double offered, double achieved, long errors, double p99Millis) {
		Histogram histogram = new Histogram(LatencyRecorder.HIGHEST_NANOS, 3);
		histogram.recordValue((long) (p99Millis * 1e6));
		return new LoadResult(offered, achieved, 100, errors, (errors > 0) ? "status 500 (expected 200)" : null,
				histogram, 0, 0, 0, 1_000_000_000L);
	}

}
