package io.khamsin.container.bridge;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.exchange.HttpExchange;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.LogCapture;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A handler whose body does not match the {@code Content-Length} it set: the client never waits for bytes that will
 * not come, never reads bytes past the announced length as the next response, and the connection's other exchanges
 * are served.
 */
class ContentLengthTests {

	private KhamsinServer server;

	@BeforeEach
	void start() {
		HttpHandler handler = (request, response) -> switch (request.getPath().value()) {
			case "/short-stream" -> stream(response, 10, "abcd", "ef");
			case "/long-stream" -> stream(response, 4, "abcd", "efgh");
			case "/short-whole" -> {
				response.getHeaders().setContentLength(10);
				yield response.writeWith(Mono.just(buffer(response, "abcd")));
			}
			default -> response.writeWith(Mono.just(buffer(response, "fine")));
		};
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), handler);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	@Test
	void aStreamedBodyEndingShortOfItsLengthClosesTheConnectionAfterTheBytesItHas() throws Exception {
		try (LogCapture log = LogCapture.of(HttpExchange.class);
				RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			RawHttpConnection.Response response = connection.send("GET /short-stream HTTP/1.1\r\nHost: a\r\n\r\n").read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.complete()).as("the body is whole").isFalse();
			assertThat(response.bodyText()).isEqualTo("abcdef");
			assertThat(connection.isClosedByServer()).isTrue();
			assertThat(log.messages(Level.WARN)).singleElement()
				.asString()
				.contains("GET /short-stream", "6 of the 10 bytes");
		}
		assertThat(getFine()).isEqualTo("fine");
	}

	@Test
	void aStreamedBodyRunningPastItsLengthIsCutThereAndItsConnectionClosed() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /long-stream HTTP/1.1\r\nHost: a\r\n\r\nGET /ok HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.complete()).isTrue();
			assertThat(response.bodyText()).isEqualTo("abcd");
			// "efgh" never arrives where the pipelined request's response is read.
			assertThat(connection.isClosedByServer()).isTrue();
		}
	}

	@Test
	void aWholeBodyThatDoesNotMatchItsLengthIsAnsweredWithAnErrorAndTheConnectionServesOn() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			RawHttpConnection.Response response = connection.send("GET /short-whole HTTP/1.1\r\nHost: a\r\n\r\n").read();
			assertThat(response.status()).isEqualTo(500);
			assertThat(response.header("content-length")).isEqualTo("0");
			assertThat(connection.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText()).isEqualTo("fine");
		}
	}

	@Test
	void anHttp2StreamEndingShortOfItsLengthIsResetAndTheConnectionServesOn() throws Exception {
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream stream = client.send("GET", "/short-stream", null);
			assertThatThrownBy(() -> stream.response().get(10, TimeUnit.SECONDS))
				.isInstanceOf(ExecutionException.class)
				.hasMessageContaining("Stream reset");
			H2cClient.Response fine = client.send("GET", "/ok", null).response().get(10, TimeUnit.SECONDS);
			assertThat(new String(fine.body(), StandardCharsets.UTF_8)).isEqualTo("fine");
		}
	}

	private String getFine() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			return connection.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText();
		}
	}

	private static Mono<Void> stream(ServerHttpResponse response, long length, String... parts) {
		response.getHeaders().setContentLength(length);
		return response.writeWith(Flux.fromArray(parts)
			.concatMap((part) -> Mono.delay(Duration.ofMillis(5)).thenReturn(part))
			.map((part) -> buffer(response, part)));
	}

	private static DataBuffer buffer(ServerHttpResponse response, String text) {
		return response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8));
	}

}
