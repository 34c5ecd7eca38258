package io.khamsin.sample;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/1.1 connection handling (RFC 9112) seen from a plain socket: keep-alive, pipelining, HEAD framing,
 * {@code Connection: close} and the request-target forms.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http1ConnectionTests {

	@ParameterizedTest
	@EnumSource
	void sequentialRequestsAreServedOnOneKeptAliveConnection(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			for (int i = 0; i < 3; i++) {
				RawHttpConnection.Response response = connection.send(Requests.get("/addresses")).read();
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.bodyText()).startsWith("remote=127.0.0.1:" + connection.localPort() + " ");
			}
			// A server that closed after an answer would have its end of stream follow the answer's last bytes.
			assertThat(connection.isClosedByServer(500)).isFalse();
		}
	}

	@ParameterizedTest
	@EnumSource
	void pipelinedRequestsAreAnsweredInOrder(Container container) throws Exception {
		String order = """
				{"id":"pipelined","customer":{"id":"c1","name":"Ada","email":"ada@example.com"},\
				"items":[{"sku":"A-1","name":"Lamp","quantity":2,"unitPrice":10.50}],"currency":"EUR"}""";
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			// The slow page first: a server that answered in completion order would send /plaintext first.
			connection.send(Requests.get("/page/slow") + Requests.get("/plaintext")
					+ "POST /json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
					+ order.length() + "\r\n\r\n" + order + Requests.get("/page/last"));
			assertThat(connection.read().bodyText()).contains("<h1>Product slow</h1>");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
			assertThat(connection.read().bodyText()).contains("\"orderId\":\"pipelined\"").contains("\"total\":25.20");
			assertThat(connection.read().bodyText()).contains("<h1>Product last</h1>");
		}
	}

	@ParameterizedTest
	@EnumSource
	void headAnswersTheHeadersOfGetWithoutABody(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response head = connection.send(Requests.head("/plaintext")).readHead();
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Content-Type")).startsWith("text/plain");
			assertThat(head.header("Content-Length")).isEqualTo("13");
			// Were a body sent after the HEAD response, it would be read here as the next status line.
			RawHttpConnection.Response next = connection.send(Requests.get("/plaintext")).read();
			assertThat(next.status()).isEqualTo(200);
			assertThat(next.bodyText()).isEqualTo("Hello, World!");
		}
	}

	@ParameterizedTest
	@EnumSource
	void connectionCloseIsAnsweredThenTheServerCloses(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection
				.send("GET /plaintext HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("Hello, World!");
			assertThat(connection.isClosedByServer()).isTrue();
		}
	}

	@ParameterizedTest
	@EnumSource
	void absoluteFormRequestTargetIsServed(Container container) throws Exception {
		SampleServer server = container.server();
		try (RawHttpConnection connection = new RawHttpConnection(server.port())) {
			RawHttpConnection.Response response = connection.send("GET http://localhost:" + server.port()
					+ "/plaintext HTTP/1.1\r\nHost: localhost:" + server.port() + "\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("Hello, World!");
		}
	}

	@ParameterizedTest
	@EnumSource
	void asteriskFormOptionsIsAnsweredAndTheConnectionStaysUsable(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response options = connection
				.send("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n")
				.read();
			// No route serves "*" (WebFlux answers 404 on Reactor Netty); what matters is a well-framed answer.
			assertThat(options.status()).isBetween(200, 499);
			assertThat(options.complete()).isTrue();
			RawHttpConnection.Response next = connection.send(Requests.get("/plaintext")).read();
			assertThat(next.bodyText()).isEqualTo("Hello, World!");
		}
	}

}
