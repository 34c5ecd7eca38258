package io.khamsin.container.accesslog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The access log writes one line per request in the configured format, after the response is out, for the
 * responses khamsin gives itself too (fixed responses, its refusals, {@code OPTIONS *}), and tells what to do
 * about a format or a file it cannot use.
 */
@Timeout(60)
class AccessLogTests {

	private static final String CLF_TIME = "\\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}]";

	@TempDir
	Path dir;

	private KhamsinServer server;

	private Path start(String format) {
		Path file = this.dir.resolve("logs/access.log");
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.accessLog(AccessLogConfig.of(format, file.toString()))
			.build(), new TestRoutes(Path.of("missing")).handler());
		this.server.start();
		return file;
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void commonFormatWritesALinePerRequestInOrder() throws Exception {
		Path file = start("common");
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext?x=1 HTTP/1.1\r\nHost: a\r\n\r\nGET /missing HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "HEAD /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
			assertThat(connection.read().status()).isEqualTo(404);
			assertThat(connection.read(true).status()).isEqualTo(200);
		}
		List<String> lines = lines(file, 3);
		assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - " + CLF_TIME + " \"GET /plaintext\\?x=1 HTTP/1\\.1\" 200 13");
		assertThat(lines.get(1)).matches("127\\.0\\.0\\.1 - - " + CLF_TIME + " \"GET /missing HTTP/1\\.1\" 404 \\S+");
		assertThat(lines.get(2)).contains("\"HEAD /plaintext HTTP/1.1\" 200");
	}

	@Test
	void combinedFormatAddsTheRefererAndUserAgent() throws Exception {
		Path file = start("combined");
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\nUser-Agent: tester/1.0\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
		}
		assertThat(lines(file, 1).get(0)).endsWith("\"GET /plaintext HTTP/1.1\" 200 13 \"-\" \"tester/1.0\"");
	}

	@Test
	void aPatternCanTellTheTimeTakenAndTheParts() throws Exception {
		Path file = start("%m %U%q %H %>s %B %D %{Host}i %%");
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext?a=b HTTP/1.1\r\nHost: example\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
		}
		assertThat(lines(file, 1).get(0)).matches("GET /plaintext\\?a=b HTTP/1\\.1 200 13 \\d+ example %");
	}

	@Test
	void everyResponseKhamsinWritesItselfIsLoggedWithItsStatus() throws Exception {
		Path file = this.dir.resolve("logs/access.log");
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.maxInitialLineLength(256)
			.maxHeaderSize(1024)
			.maxRequestBodySize(100)
			.headerReadTimeout(Duration.ofMillis(300))
			.fixedResponse(FixedResponse.of("/health", 200, "text/plain", "UP"))
			.accessLog(AccessLogConfig.of("\"%r\" %>s %b", file.toString()))
			.build(), new TestRoutes(Path.of("missing")).handler());
		this.server.start();
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\nOPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
			assertThat(connection.read().status()).isEqualTo(200);
		}
		String[] refused = { "GET /plaintext HTTP/1.1\r\nHost: a\r\nExpect: something\r\n\r\n",
				"GET /plaintext HTTP/2.0\r\nHost: a\r\n\r\n",
				"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n",
				"GET /" + "a".repeat(300) + " HTTP/1.1\r\nHost: a\r\n\r\n",
				"GET /plaintext HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(2000) + "\r\n\r\n",
				"GET * HTTP/1.1\r\nHost: a\r\n\r\n", "GET /plaintext HTTP/1.1\r\nHost: a\r\n" };
		int[] statuses = { 417, 505, 413, 414, 431, 400, 408 };
		for (int i = 0; i < refused.length; i++) {
			try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
				assertThat(connection.send(refused[i]).read().status()).isEqualTo(statuses[i]);
			}
		}
		List<String> lines = lines(file, 2 + refused.length);
		assertThat(lines).containsExactlyInAnyOrder("\"GET /health HTTP/1.1\" 200 2", "\"OPTIONS * HTTP/1.1\" 200 -",
				"\"GET /plaintext HTTP/1.1\" 417 -", "\"GET /plaintext HTTP/2.0\" 505 -", "\"POST /echo HTTP/1.1\" 413 -",
				"\"-\" 414 -", "\"-\" 431 -", "\"GET * HTTP/1.1\" 400 -", "\"-\" 408 -");
	}

	@Test
	void anUnknownDirectiveIsRejectedWithTheDirectivesThatExist() {
		assertThatIllegalArgumentException().isThrownBy(() -> AccessLogConfig.of("%h %x", "logger"))
			.withMessageContaining("'%x' at position 3")
			.withMessageContaining("'common', 'combined'");
		assertThatIllegalArgumentException().isThrownBy(() -> AccessLogConfig.of("%{Host}", "logger"))
			.withMessageContaining("'%{Host}'");
		assertThatIllegalArgumentException().isThrownBy(() -> AccessLogConfig.of("common", " "))
			.withMessageContaining("destination");
	}

	@Test
	void aFileThatCannotBeOpenedStopsTheStartWithWhatToDo() throws IOException {
		Path directory = Files.createDirectories(this.dir.resolve("a-directory"));
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.accessLog(AccessLogConfig.of("common", directory.toString()))
			.build(), new TestRoutes(Path.of("missing")).handler());
		assertThatIllegalStateException().isThrownBy(server::start)
			.withMessageContaining("cannot open the access log file")
			.withMessageContaining("khamsin.access-log.destination");
		assertThat(server.isRunning()).isFalse();
	}

	private static List<String> lines(Path file, int count) {
		return await().atMost(Duration.ofSeconds(20))
			.until(() -> Files.exists(file) ? Files.readAllLines(file) : List.<String>of(), (lines) -> lines.size() >= count);
	}

}
