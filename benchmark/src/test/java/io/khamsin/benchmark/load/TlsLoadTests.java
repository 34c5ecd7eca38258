package io.khamsin.benchmark.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.benchmark.target.TlsFiles;
import io.khamsin.benchmark.testserver.FakeServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generator over TLS 1.3: keep-alive load, and a new connection per request in closed loop, where each
 * handshake is counted, and counted resumed only when the client's engine saw the server resume the session.
 */
class TlsLoadTests {

	private static final RequestTemplate PLAINTEXT = new RequestTemplate("GET", "/plaintext", Map.of(), new byte[0],
			200, 13);

	@Test
	void aNewConnectionPerRequestMakesAFullHandshakeEachTime(@TempDir Path dir) {
		try (FakeServer server = FakeServer.overTls("Hello, World!", "text/plain", TlsFiles.generate(dir));
				LoadGenerator generator = new LoadGenerator(new UnpooledByteBufAllocator(false))) {
			LoadResult result = generator.run(LoadSpec.connectionPerRequestClosedLoop(server.address(), PLAINTEXT, 4,
					Duration.ofMillis(300), Duration.ofSeconds(2)).withTls(ClientTls.fullHandshakes()));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.completed()).isGreaterThan(5);
			assertThat(result.handshakes()).isBetween(result.completed() - 8, result.completed() + 8);
			assertThat(result.resumedHandshakes()).isZero();
		}
	}

	@Test
	void aResumingClientResumesTheSessionsOfEarlierConnections(@TempDir Path dir) {
		try (FakeServer server = FakeServer.overTls("Hello, World!", "text/plain", TlsFiles.generate(dir));
				LoadGenerator generator = new LoadGenerator(new UnpooledByteBufAllocator(false))) {
			LoadResult result = generator.run(LoadSpec.connectionPerRequestClosedLoop(server.address(), PLAINTEXT, 4,
					Duration.ofMillis(300), Duration.ofSeconds(2)).withTls(ClientTls.resuming()));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.handshakes()).isGreaterThan(5);
			assertThat(result.resumedHandshakes()).isGreaterThan(result.handshakes() * 9 / 10);
		}
	}

	@Test
	void keepAliveLoadOverTlsIsAnsweredAndTimed(@TempDir Path dir) {
		try (FakeServer server = FakeServer.overTls("Hello, World!", "text/plain", TlsFiles.generate(dir));
				LoadGenerator generator = new LoadGenerator(new UnpooledByteBufAllocator(false))) {
			LoadResult result = generator.run(LoadSpec.openLoop(server.address(), PLAINTEXT, 4, 500,
					Duration.ofMillis(300), Duration.ofSeconds(2)).withTls(ClientTls.resuming()));

			assertThat(result.errors()).as(result.describe()).isZero();
			assertThat(result.completed()).isBetween(800L, 1_100L);
			assertThat(server.requests()).isGreaterThanOrEqualTo(result.completed());
		}
	}

}
