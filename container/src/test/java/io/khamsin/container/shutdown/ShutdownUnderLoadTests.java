package io.khamsin.container.shutdown;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.engine.ShutdownResult;
import io.khamsin.container.shutdown.ShutdownDrill.Protocol;
import io.khamsin.container.shutdown.ShutdownDrill.Round;
import io.khamsin.container.test.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Graceful shutdowns under a steady load, on every protocol: no request the server took fails. A request is taken
 * once the server has read its head; every one must be answered in full, and every other one must be one its client
 * can tell was not processed (refused connection, not sent after {@code Connection: close} or GOAWAY, a stream above
 * the GOAWAY's or refused). The build runs {@value #DEFAULT_ROUNDS} shutdowns per protocol; {@code benchmark/shutdown}
 * runs more ({@code -Dkhamsin.shutdown.rounds}) and writes what it counted ({@code -Dkhamsin.shutdown.report}).
 */
@Timeout(600)
class ShutdownUnderLoadTests {

	private static final int DEFAULT_ROUNDS = 3;

	private static final int ROUNDS = Integer.getInteger("khamsin.shutdown.rounds", DEFAULT_ROUNDS);

	private static final String REPORT = System.getProperty("khamsin.shutdown.report");

	private static ShutdownDrill drill;

	@BeforeAll
	static void certificates() throws Exception {
		drill = new ShutdownDrill(TestCertificates.create());
	}

	@ParameterizedTest
	@EnumSource(Protocol.class)
	void noRequestTheServerTookFailsAcrossGracefulShutdownsUnderLoad(Protocol protocol) throws Exception {
		List<Round> rounds = new ArrayList<>();
		Tally total = new Tally();
		for (int i = 0; i < ROUNDS; i++) {
			Round round = drill.round(protocol);
			round.tally().addTo(total);
			rounds.add(round);
		}
		report(protocol, rounds, total);
		assertThat(total.failures()).isEmpty();
		assertThat(total.count(Outcome.FAILED)).isZero();
		assertThat(rounds).allSatisfy((round) -> {
			assertThat(round.result()).isEqualTo(ShutdownResult.IDLE);
			assertThat(round.loadEnded()).isTrue();
			assertThat(round.tally().count(Outcome.COMPLETED)).isGreaterThan(0);
		});
	}

	private static void report(Protocol protocol, List<Round> rounds, Tally total) throws IOException {
		List<Long> millis = rounds.stream().map(Round::millis).sorted().toList();
		String idle = rounds.stream().filter((round) -> round.result() == ShutdownResult.IDLE).count() + "/"
				+ rounds.size();
		StringBuilder line = new StringBuilder("| ").append(protocol.description())
			.append(" | ")
			.append(protocol.connections())
			.append(" x ")
			.append(protocol.streams())
			.append(" | ")
			.append(rounds.size())
			.append(" | ")
			.append(idle)
			.append(" | ")
			.append(millis.get(millis.size() / 2))
			.append(" / ")
			.append(millis.get(millis.size() - 1));
		long requests = 0;
		for (Outcome outcome : Outcome.values()) {
			long count = total.count(outcome);
			requests += count;
			line.append(" | ").append(count);
		}
		line.append(" | ").append(requests).append(" |\n");
		String failures = total.failures().stream().map((failure) -> "  - " + failure).collect(Collectors.joining("\n"));
		System.out.print(line);
		System.out.println(failures);
		if (REPORT != null) {
			Files.writeString(Path.of(REPORT), line + (failures.isEmpty() ? "" : failures + "\n"), StandardCharsets.UTF_8,
					StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
	}

}
