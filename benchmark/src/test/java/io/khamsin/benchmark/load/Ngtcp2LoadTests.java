package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The ngtcp2 load generator's counting, with programs that stand in for gtlsclient: each copy that exits 0 with nothing
 * on standard error counts all its requests completed; another exit, an error printed (gtlsclient exits 0 when its
 * connection failed) or a copy stopped at its timeout counts them all failed, with how it ended in the errors; copies
 * are started again until the time is over, with gtlsclient's flags, request count and URL.
 */
@Timeout(60)
class Ngtcp2LoadTests {

	private static final InetSocketAddress ADDRESS = new InetSocketAddress("127.0.0.1", 4433);

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@Test
	void copiesThatExitZeroCountAllTheirRequestsCompletedAndAreStartedAgainUntilTheTimeIsOver() {
		Ngtcp2Load.Result result = new Ngtcp2Load(List.of("true"), TIMEOUT).load(ADDRESS, "/plaintext", 2, 100, 1);

		assertThat(result.completed()).isGreaterThan(2 * 100);
		assertThat(result.completed() % 100).isZero();
		assertThat(result.failed()).isZero();
		assertThat(result.rate()).isPositive();
		assertThat(result.processes()).isEqualTo(2);
		assertThat(result.errors()).isEmpty();
		assertThat(result.toString()).startsWith("gtlsclient: rate=").contains(" completed=" + result.completed())
			.contains(" failed=0 processes=2").doesNotContain("failure=");
	}

	@Test
	void copiesThatExitNonZeroCountAllTheirRequestsFailed() {
		Ngtcp2Load.Result result = new Ngtcp2Load(List.of("false"), TIMEOUT).load(ADDRESS, "/plaintext", 2, 100, 1);

		assertThat(result.completed()).isZero();
		assertThat(result.rate()).isZero();
		assertThat(result.failed()).isGreaterThanOrEqualTo(2 * 100);
		assertThat(result.failed() % 100).isZero();
		assertThat(result.errors()).isEqualTo(result.failed() + " requests failed (last: gtlsclient exited 1)");
		assertThat(result.toString()).endsWith(" failure=gtlsclient exited 1");
	}

	@Test
	void theErrorsSayTheExitStatusAndTheLastLineTheCopyPrintedToStandardError() {
		Ngtcp2Load load = new Ngtcp2Load(List.of("sh", "-c",
				"echo connecting >&2; echo 'handshake failed' >&2; echo >&2; exit 3", "gtlsclient"), TIMEOUT);

		Ngtcp2Load.Result result = load.load(ADDRESS, "/plaintext", 1, 5000, 0);

		assertThat(result.failed()).isEqualTo(5000);
		assertThat(result.errors()).isEqualTo("5000 requests failed (last: gtlsclient exited 3: handshake failed)");
	}

	@Test
	void aCopyThatExitsZeroButPrintsAnErrorCountsItsRequestsFailed() {
		Ngtcp2Load load = new Ngtcp2Load(List.of("sh", "-c", "echo 'ngtcp2_conn_handle_expiry: ERR_HANDSHAKE_TIMEOUT' "
				+ ">&2", "gtlsclient"), TIMEOUT);

		Ngtcp2Load.Result result = load.load(ADDRESS, "/plaintext", 1, 5000, 0);

		assertThat(result.completed()).isZero();
		assertThat(result.errors())
			.isEqualTo("5000 requests failed (last: gtlsclient: ngtcp2_conn_handle_expiry: ERR_HANDSHAKE_TIMEOUT)");
	}

	@Test
	void aCopyStillRunningAtItsTimeoutIsStoppedAndItsRequestsFailed() {
		Ngtcp2Load load = new Ngtcp2Load(List.of("sh", "-c", "exec sleep 30", "gtlsclient"), Duration.ofSeconds(1));

		Ngtcp2Load.Result result = load.load(ADDRESS, "/plaintext", 2, 5000, 0);

		assertThat(result.completed()).isZero();
		assertThat(result.failed()).isEqualTo(2 * 5000);
		assertThat(result.errors()).contains("gtlsclient still running after 1 s, stopped");
	}

	@Test
	void eachCopyIsGivenGtlsclientsFlagsItsRequestCountTheAddressAndTheUrl() {
		String expected = "--quiet --no-quic-dump --no-http-dump --exit-on-all-streams-close -n 7 127.0.0.1 4433 "
				+ "https://127.0.0.1:4433/plaintext";
		Ngtcp2Load load = new Ngtcp2Load(List.of("sh", "-c", "[ \"$*\" = '" + expected + "' ] || { echo \"$*\" >&2; "
				+ "exit 1; }", "gtlsclient"), TIMEOUT);

		Ngtcp2Load.Result result = load.load(ADDRESS, "/plaintext", 1, 7, 0);

		assertThat(result.errors()).isEmpty();
		assertThat(result.completed()).isEqualTo(7);
	}

	@Test
	void processesAndRequestsMustBePositive() {
		Ngtcp2Load load = new Ngtcp2Load(List.of("true"), TIMEOUT);

		assertThatIllegalArgumentException().isThrownBy(() -> load.load(ADDRESS, "/plaintext", 0, 100, 1))
			.withMessageContaining("processes");
		assertThatIllegalArgumentException().isThrownBy(() -> load.load(ADDRESS, "/plaintext", 1, 0, 1))
			.withMessageContaining("requestsPerProcess");
	}

}
