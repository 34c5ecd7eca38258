package io.khamsin.benchmark.target;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.testserver.FakeServer;

import static org.assertj.core.api.Assertions.assertThat;

class IntegrityCheckTests {

	private final IntegrityCheck check = new IntegrityCheck();

	@Test
	void aTargetAnsweringTheExpectedBodyPasses() {
		try (FakeServer server = FakeServer.answering("Hello, World!", "text/plain; charset=UTF-8")) {
			IntegrityCheck.Result result = this.check.check(server.address(), Route.PLAINTEXT);

			assertThat(result.passed()).as(result.reason()).isTrue();
			assertThat(result.bodyLength()).isEqualTo(13);
		}
	}

	@Test
	void aTargetAnsweringAWrongBodyIsRejectedWithTheReason() {
		try (FakeServer server = FakeServer.answering("Hello, World", "text/plain")) {
			IntegrityCheck.Result result = this.check.check(server.address(), Route.PLAINTEXT);

			assertThat(result.passed()).isFalse();
			assertThat(result.reason()).isEqualTo("GET /plaintext: body of 12 bytes differs from the expected 13 bytes "
					+ "(starts: \"Hello, World\")");
		}
	}

	@Test
	void aTargetAnsweringAnotherContentTypeIsRejected() {
		try (FakeServer server = FakeServer.answering("Hello, World!", "application/octet-stream")) {
			IntegrityCheck.Result result = this.check.check(server.address(), Route.PLAINTEXT);

			assertThat(result.passed()).isFalse();
			assertThat(result.reason()).contains("content type application/octet-stream (expected text/plain)");
		}
	}

	@Test
	void aTargetAnsweringAnotherStatusIsRejected() {
		try (FakeServer server = FakeServer.answering(404, "", "text/plain")) {
			IntegrityCheck.Result result = this.check.check(server.address(), Route.PLAINTEXT);

			assertThat(result.passed()).isFalse();
			assertThat(result.reason()).isEqualTo("GET /plaintext: status 404 (expected 200)");
		}
	}

	@Test
	void jsonIsComparedAsJsonNotAsBytes() {
		String expected = new String(Payloads.confirmation1k(), StandardCharsets.US_ASCII);
		byte[] spaced = expected.replace(",", ", ").getBytes(StandardCharsets.US_ASCII);
		byte[] changed = expected.replace("ACCEPTED", "REJECTED").getBytes(StandardCharsets.US_ASCII);

		assertThat(IntegrityCheck.verify(Route.JSON, 200, "application/json", spaced).passed()).isTrue();
		assertThat(IntegrityCheck.verify(Route.JSON, 200, "application/json", changed).reason())
			.startsWith("POST /json: body is not the expected JSON");
	}

	@Test
	void theOrderIsOneKilobyte() {
		assertThat(Payloads.order1k()).hasSize(1024);
	}

}
