package io.khamsin.container.http1;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.test.LeakDetectionExtension;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * HTTP/1.1 as a client sees it on a real socket (RFC 9112): keep-alive, pipelining, chunking,
 * {@code Expect: 100-continue}, HEAD, {@code Connection: close}, request-target forms, zero-copy files and
 * handler errors.
 */
@Timeout(30)
class Http1BehaviourTests {

	@TempDir
	Path dir;

	private KhamsinServer server;

	private Path file;

	private byte[] fileBytes;

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@BeforeEach
	void start() throws IOException {
		this.fileBytes = new byte[3 * 1024 * 1024 + 17];
		new Random(7).nextBytes(this.fileBytes);
		this.file = Files.write(this.dir.resolve("blob.bin"), this.fileBytes);
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(2).serverHeader("khamsin-test").build(),
				new TestRoutes(this.file).handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.port() + path);
	}

	@Test
	void plaintextIsAnsweredWithLengthDateAndServerHeader() throws Exception {
		HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(uri("/plaintext")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("Hello, World!");
		assertThat(response.headers().firstValue("content-length")).hasValue("13");
		assertThat(response.headers().firstValue("content-type")).hasValueSatisfying((v) -> assertThat(v).startsWith("text/plain"));
		assertThat(response.headers().firstValue("date")).isPresent();
		assertThat(response.headers().firstValue("server")).hasValue("khamsin-test");
	}

	@Test
	void keepAliveServesManyRequestsOnOneConnection() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			for (int i = 0; i < 5; i++) {
				connection.send("GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n");
				RawHttpConnection.Response response = connection.read();
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.bodyText()).isEqualTo("Hello, World!");
				assertThat(response.header("connection")).isNull();
			}
		}
	}

	@Test
	void pipelinedRequestsAreAnsweredInOrder() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /stream?count=3 HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
					+ "GET /stream?count=1 HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("part-1\npart-2\npart-3\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
			assertThat(connection.read().bodyText()).isEqualTo("hello");
			assertThat(connection.read().bodyText()).isEqualTo("part-1\n");
		}
	}

	@Test
	void chunkedRequestBodyIsReadAndStreamedResponseIsChunked() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
					+ "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
			RawHttpConnection.Response echo = connection.read();
			assertThat(echo.status()).isEqualTo(200);
			assertThat(echo.bodyText()).isEqualTo("hello world");
			connection.send("GET /stream?count=4 HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response stream = connection.read();
			assertThat(stream.header("transfer-encoding")).isEqualTo("chunked");
			assertThat(stream.bodyText()).isEqualTo("part-1\npart-2\npart-3\npart-4\n");
		}
	}

	@Test
	void expectContinueIsAnsweredBeforeTheBodyIsSent() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
			RawHttpConnection.Response interim = connection.read();
			assertThat(interim.status()).isEqualTo(100);
			connection.send("ping");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("ping");
		}
	}

	@Test
	void aBodyTheHandlerIgnoresIsReleasedWhetherItArrivedOrNot() throws Exception {
		int mark = LeakDetectionExtension.mark();
		String big = "x".repeat(200_000);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			for (int i = 0; i < 5; i++) {
				// A small body, whole before the answer; a large one, still arriving when the handler is done.
				connection.send("POST /ignore HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello");
				assertThat(connection.read().bodyText()).isEqualTo("ignored");
				connection.send("POST /ignore HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + big.length()
						+ "\r\n\r\n" + big);
				RawHttpConnection.Response response = connection.read();
				assertThat(response.bodyText()).isEqualTo("ignored");
				if ("close".equals(response.header("Connection"))) {
					break;
				}
			}
		}
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /ignore HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello");
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.server.connections().open() == 0);
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

	@Test
	void aChunkedBodyThatBreaksItsFramingIsRefusedAndNothingAfterItIsRead() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /digest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
					+ "5\r\nhello\r\n5 5\r\nworld\r\n0\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(400);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.BAD_REQUEST)).isEqualTo(1);
	}

	@Test
	void aChunkedBodyThatBreaksItsFramingAfterTheResponseClosesTheConnection() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /ignore HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("ignored");
			connection.send("3\r\nworld\r\n0\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void aTransferCodingOtherThanChunkedIsRefusedWith501AndItsBodyNotRead() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
					+ "23\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n\r\n0\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(501);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , CHUNKED\t\r\n\r\n"
					+ "5\r\nhello\r\n0\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("hello");
		}
	}

	@Test
	void aRequestWithTwoHostFieldsIsRefusedWith400() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(400);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.BAD_REQUEST)).isEqualTo(1);
	}

	@Test
	void aRequestLineWithTheProtocolNameInLowerCaseIsRefusedWith400() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext http/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(400);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void unknownExpectationIsRejectedWith417() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: teapot\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(417);
		}
		assertThat(this.server.guards().count(Guard.BAD_REQUEST)).isEqualTo(1);
	}

	@Test
	void headIsAnsweredWithHeadersAndNoBody() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("HEAD /plaintext HTTP/1.1\r\nHost: a\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response head = connection.read(true);
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("content-length")).isEqualTo("13");
			RawHttpConnection.Response get = connection.read();
			assertThat(get.bodyText()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void connectionCloseIsHonoured() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void http10KeepAliveIsAnsweredWithKeepAlive() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
			assertThat(connection.read().header("connection")).isEqualToIgnoringCase("keep-alive");
			connection.send("GET /plaintext HTTP/1.0\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void absoluteFormAndAsteriskFormAreServed() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET http://localhost:" + this.server.port() + "/plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
			connection.send("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n");
			RawHttpConnection.Response options = connection.read();
			assertThat(options.status()).isEqualTo(200);
			assertThat(options.header("allow")).contains("GET");
			connection.send("GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void asteriskFormOfAnotherMethodIsRefusedWith400AndClosed() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET * HTTP/1.1\r\nHost: localhost\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.status()).isEqualTo(400);
			assertThat(response.header("content-length")).isEqualTo("0");
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(response.header("server")).isEqualTo("khamsin-test");
			assertThat(response.header("date")).endsWith(" GMT");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.BAD_REQUEST)).isEqualTo(1);
	}

	@Test
	void aRequestInAnotherMajorVersionOfHttpIsRefusedWith505AndClosed() throws Exception {
		for (String version : new String[] { "HTTP/2.0", "HTTP/3.0" }) {
			try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
				connection.send("GET /plaintext " + version + "\r\nHost: localhost\r\n\r\n");
				RawHttpConnection.Response response = connection.read();
				assertThat(response.status()).isEqualTo(505);
				assertThat(response.header("connection")).isEqualTo("close");
				assertThat(connection.isClosedByServer(5000)).isTrue();
			}
		}
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.2\r\nHost: localhost\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
		}
		assertThat(this.server.guards().count(Guard.BAD_REQUEST)).isEqualTo(2);
	}

	@Test
	void fileIsDownloadedWhole() throws Exception {
		HttpResponse<byte[]> response = this.client.send(HttpRequest.newBuilder(uri("/file")).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-length")).hasValue(String.valueOf(this.fileBytes.length));
		assertThat(TestRoutes.sha256Hex(response.body())).isEqualTo(TestRoutes.sha256Hex(this.fileBytes));
	}

	@Test
	void handlerErrorBeforeCommitIs500AndTheServerKeepsServing() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /boom HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(500);
			connection.send("GET /status HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(418);
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void handlerErrorAfterCommitClosesTheConnectionAndTheServerKeepsServing() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /boom-after-commit HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response truncated = connection.read();
			assertThat(truncated.complete()).as("the chunked body ended with its last chunk").isFalse();
			assertThat(connection.isClosedByServer()).isTrue();
		}
		HttpResponse<String> next = this.client.send(HttpRequest.newBuilder(uri("/plaintext")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(next.body()).isEqualTo("Hello, World!");
	}

	@Test
	void handlerErrorRightAfterCommitClosesOnlyOnceWhatWasWrittenIsOut() throws Exception {
		for (int i = 0; i < 10; i++) {
			try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
				connection.send("GET /boom-right-after-commit HTTP/1.1\r\nHost: a\r\n\r\n");
				RawHttpConnection.Response truncated = connection.read();
				assertThat(truncated.complete()).isFalse();
				assertThat(truncated.bodyText()).isEqualTo("data:first\n\ndata:second\n\n");
				assertThat(connection.isClosedByServer()).isTrue();
			}
		}
	}

	@Test
	void cookiesAndRemoteAddressReachTheHandler() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /cookie HTTP/1.1\r\nHost: a\r\nCookie: seen=yes; other=1\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.bodyText()).isEqualTo("yes");
			assertThat(response.header("set-cookie")).contains("flavour=ginger").contains("HttpOnly");
			connection.send("GET /remote HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("127.0.0.1");
		}
	}

	@Test
	void serverSentEventsArriveAsTheyAreProduced() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /sse HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.header("content-type")).startsWith("text/event-stream");
			assertThat(response.bodyText()).isEqualTo("data:event-0\n\ndata:event-1\n\ndata:event-2\n\n");
		}
	}

}
