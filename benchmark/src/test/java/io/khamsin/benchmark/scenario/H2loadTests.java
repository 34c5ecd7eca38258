package io.khamsin.benchmark.scenario;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class H2loadTests {

	private static final String FINISHED = """
			starting benchmark...
			spawning thread #0: 64 total client(s). Timing-based test with 1s of warm-up time and 5s of main duration for measurements.
			Application protocol: h2c
			Main benchmark duration is over for thread #0. Stopping all clients.
			finished in 5.00s, 75763.40 req/s, 2.53MB/s
			requests: 378817 total, 385217 started, 378817 done, 378810 succeeded, 4 failed, 2 errored, 1 timeout
			status codes: 378800 2xx, 0 3xx, 10 4xx, 0 5xx
			""";

	@Test
	void theRateFailuresStatusesAndProtocolAreReadFromWhatH2loadPrints() {
		H2load.Run run = H2load.parse(FINISHED);

		assertThat(run.rate()).isEqualTo(75_763.4);
		assertThat(run.succeeded()).isEqualTo(378_810);
		assertThat(run.failed()).isEqualTo(7);
		assertThat(run.non2xx()).isEqualTo(10);
		assertThat(run.protocol()).isEqualTo("h2c");
		assertThat(run.errors()).isEqualTo("7 requests failed; 10 answers not 2xx");
	}

	@Test
	void aRunThatFellBackFromHttp2IsAnError() {
		H2load.Run run = H2load.parse(FINISHED.replace("Application protocol: h2c", "Application protocol: http/1.1")
			.replace("4 failed, 2 errored, 1 timeout", "0 failed, 0 errored, 0 timeout").replace("10 4xx", "0 4xx"));

		assertThat(run.errors()).isEqualTo("spoke http/1.1, not HTTP/2");
	}

	@Test
	void withoutAResultTheOutputIsTheError() {
		assertThatIllegalStateException().isThrownBy(() -> H2load.parse("starting benchmark...\nconnect failed"))
			.withMessageContaining("connect failed");
	}

}
