package io.khamsin.container.http1;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Fixed responses as a client sees them: the configured bytes, a fresh Date, HEAD, keep-alive and close, in
 * order with pipelined application requests, and never a call into the application.
 */
@Timeout(30)
class FixedResponseTests {

	private KhamsinServer server;

	private final AtomicInteger handled = new AtomicInteger();

	@BeforeEach
	void start() {
		HttpHandler routes = new TestRoutes(null).handler();
		HttpHandler counting = (request, response) -> {
			this.handled.incrementAndGet();
			return routes.handle(request, response);
		};
		KhamsinServerConfig config = KhamsinServerConfig.builder()
			.reactors(1)
			.serverHeader("khamsin-test")
			.fixedResponse(new FixedResponse("/health", 200, "application/json",
					"{\"status\":\"UP\"}".getBytes(), Map.of("Cache-Control", "no-store")))
			.fixedResponse(FixedResponse.of("/gone", 503, "text/plain", "down for maintenance"))
			.fixedResponse(FixedResponse.of("/nothing", 204, null, null))
			.build();
		this.server = KhamsinServer.create(config, counting);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	@Test
	void getIsAnsweredWithTheConfiguredResponseWithoutTheApplication() throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpResponse<String> response = client.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.server.port() + "/health?probe=1")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"status\":\"UP\"}");
		assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
		assertThat(response.headers().firstValue("content-length")).hasValue("15");
		assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
		assertThat(response.headers().firstValue("server")).hasValue("khamsin-test");
		assertThat(response.headers().firstValue("date")).hasValueSatisfying((date) -> assertThat(date).endsWith(" GMT"));
		assertThat(this.handled).hasValue(0);
	}

	@Test
	void keepAliveHeadStatusAndNoContentAreAnsweredOnOneConnection() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			for (int i = 0; i < 3; i++) {
				connection.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n");
				RawHttpConnection.Response response = connection.read();
				assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(response.header("connection")).isNull();
				assertThat(response.bodyText()).isEqualTo("{\"status\":\"UP\"}");
			}
			connection.send("HEAD /health HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response head = connection.read(true);
			assertThat(head.header("content-length")).isEqualTo("15");
			assertThat(head.body()).isEmpty();
			connection.send("GET /gone HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response gone = connection.read();
			assertThat(gone.statusLine()).isEqualTo("HTTP/1.1 503 Service Unavailable");
			assertThat(gone.bodyText()).isEqualTo("down for maintenance");
			connection.send("GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response nothing = connection.read();
			assertThat(nothing.status()).isEqualTo(204);
			assertThat(nothing.header("content-length")).isNull();
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
		assertThat(this.handled).hasValue(1);
	}

	@Test
	void pipelinedFixedAndApplicationRequestsAreAnsweredInOrder() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /stream?count=2 HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "GET /health HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "HEAD /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "HEAD /health HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
					+ "GET /health HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("part-1\npart-2\n");
			assertThat(connection.read().bodyText()).isEqualTo("{\"status\":\"UP\"}");
			RawHttpConnection.Response headPlaintext = connection.read(true);
			assertThat(headPlaintext.status()).isEqualTo(200);
			assertThat(headPlaintext.body()).isEmpty();
			RawHttpConnection.Response headHealth = connection.read(true);
			assertThat(headHealth.header("cache-control")).isEqualTo("no-store");
			assertThat(headHealth.body()).isEmpty();
			assertThat(connection.read().bodyText()).isEqualTo("hello");
			assertThat(connection.read().bodyText()).isEqualTo("{\"status\":\"UP\"}");
		}
	}

	@Test
	void connectionCloseAndHttp10AreHonoured() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
			assertThat(connection.read().header("connection")).isEqualTo("keep-alive");
			connection.send("GET /health HTTP/1.0\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(response.bodyText()).isEqualTo("{\"status\":\"UP\"}");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
			assertThat(connection.read().header("connection")).isEqualTo("close");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void otherMethodsAndRequestsWithABodyGoToTheApplication() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi");
			assertThat(connection.read().status()).isEqualTo(404);
			connection.send("DELETE /health HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(404);
			connection.send("GET /health/ HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(404);
		}
		assertThat(this.handled).hasValue(3);
	}

	@Test
	void invalidFixedResponsesAreRejectedWithTheReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> FixedResponse.of("health", 200, "text/plain", "x"))
			.withMessageContaining("must start with '/'");
		assertThatIllegalArgumentException().isThrownBy(() -> FixedResponse.of("/h", 99, "text/plain", "x"))
			.withMessageContaining("between 200 and 599");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FixedResponse("/h", 200, null, null, Map.of("Content-Length", "3")))
			.withMessageContaining("khamsin writes it");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FixedResponse("/h", 200, "text/plain\r\nX: y", null, Map.of()))
			.withMessageContaining("printable ASCII");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KhamsinServerConfig.builder()
				.fixedResponse(FixedResponse.of("/h", 200, null, "a"))
				.fixedResponse(FixedResponse.of("/h", 200, null, "b"))
				.build())
			.withMessageContaining("same path /h");
	}

}
