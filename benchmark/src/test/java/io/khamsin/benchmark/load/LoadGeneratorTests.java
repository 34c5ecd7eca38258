package io.khamsin.benchmark.load;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.testserver.FakeServer;

import static org.assertj.core.api.Assertions.assertThat;

class LoadGeneratorTests {

	@Test
	void sendsOnScheduleAndAchievesTheOfferedRate() {
		try (FakeServer server = FakeServer.answering("Hello, World!", "text/plain");
				LoadGenerator generator = new LoadGenerator()) {
			LoadResult result = generator.run(LoadSpec.openLoop(server.address(),
					RequestTemplate.get("/plaintext", 13), 8, 2_000, Duration.ofMillis(200), Duration.ofSeconds(1)));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.achievedRate()).as(result.describe()).isBetween(1_900.0, 2_100.0);
			assertThat(result.completed()).isBetween(1_950L, 2_050L);
			assertThat(result.bodyBytes()).isEqualTo(13 * (long) result.achievedRate());
		}
	}

	@Test
	void aServerStallIsChargedToTheRequestsScheduledDuringIt() {
		try (FakeServer server = FakeServer.stallingOnce("Hello, World!", 1_000, 200);
				LoadGenerator generator = new LoadGenerator()) {
			LoadResult result = generator.run(LoadSpec.openLoop(server.address(),
					RequestTemplate.get("/plaintext", 13), 4, 1_000, Duration.ZERO, Duration.ofSeconds(2)));

			assertThat(result.errors()).as(result.describe()).isZero();
			// 200 of 2,000 requests were due during the stall: p99 must show it, the service time must not.
			assertThat(result.percentileMillis(99)).as(result.describe()).isGreaterThan(100);
			assertThat(result.percentileMillis(95)).as(result.describe()).isGreaterThan(50);
			assertThat(result.percentileMillis(50)).as(result.describe()).isLessThan(20);
		}
	}

	@Test
	void aWrongBodyLengthIsCountedAsAnError() {
		try (FakeServer server = FakeServer.answering("Hello, World", "text/plain");
				LoadGenerator generator = new LoadGenerator()) {
			LoadResult result = generator.run(LoadSpec.openLoop(server.address(),
					RequestTemplate.get("/plaintext", 13), 2, 500, Duration.ZERO, Duration.ofMillis(500)));

			assertThat(result.errors()).isGreaterThan(200);
			assertThat(result.completed()).isZero();
			assertThat(result.firstError()).isEqualTo("body of 12 bytes (expected 13)");
		}
	}

	@Test
	void connectionPerRequestOpensOneConnectionForEachRequest() {
		try (FakeServer server = FakeServer.answering("Hello, World!", "text/plain");
				LoadGenerator generator = new LoadGenerator()) {
			LoadResult result = generator.run(LoadSpec.connectionPerRequest(server.address(),
					RequestTemplate.get("/plaintext", 13), 500, Duration.ZERO, Duration.ofSeconds(1)));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.completed()).isBetween(490L, 510L);
			assertThat(server.requests()).isEqualTo(result.completed());
		}
	}

	@Test
	void closedLoopKeepsEveryConnectionBusy() {
		try (FakeServer server = FakeServer.withCapacity("Hello, World!", 2_000);
				LoadGenerator generator = new LoadGenerator()) {
			LoadResult result = generator.run(LoadSpec.closedLoop(server.address(),
					RequestTemplate.get("/plaintext", 13), 8, Duration.ofMillis(200), Duration.ofSeconds(1)));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.achievedRate()).as(result.describe()).isBetween(1_400.0, 2_050.0);
		}
	}

}
