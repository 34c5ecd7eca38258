package io.khamsin.sample;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Sinks;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Responses of unknown length: chunked bodies and server-sent events, each event flushed as it is written.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResponseStreamingTests {

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void bodyWithoutLengthIsSentChunked(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection.send(Requests.get("/lines?count=1000")).read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
			assertThat(response.header("Content-Length")).isNull();
			assertThat(response.complete()).isTrue();
			String expected = IntStream.rangeClosed(1, 1000).mapToObj((n) -> "line " + n + "\n")
				.collect(Collectors.joining());
			assertThat(response.bodyText()).isEqualTo(expected);
			assertThat(connection.send(Requests.get("/plaintext")).read().bodyText()).isEqualTo("Hello, World!");
		}
	}

	@ParameterizedTest
	@EnumSource
	void serverSentEventsArriveInOrder(Container container) throws Exception {
		HttpResponse<InputStream> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/sse?count=4&period=20"))
					.header("Accept", "text/event-stream")
					.build(),
				HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		String events;
		try (InputStream body = response.body()) {
			events = new String(body.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(events).isEqualTo(IntStream.rangeClosed(1, 4)
			.mapToObj((n) -> "id:" + n + "\nevent:tick\ndata:tick " + n + "\n\n")
			.collect(Collectors.joining()));
	}

	@ParameterizedTest
	@EnumSource
	void eventStreamFedFromATimerThreadEndsWithItsLastChunk(Container container) throws Exception {
		// The events come from a timer thread, not the connection's event loop, 1 ms apart: writes, flushes and
		// the end of the stream race each other. Repeated because such a race is lost only now and then.
		String expected = IntStream.rangeClosed(1, 5)
			.mapToObj((n) -> "id:" + n + "\nevent:tick\ndata:tick " + n + "\n\n")
			.collect(Collectors.joining());
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			for (int i = 0; i < 30; i++) {
				RawHttpConnection.Response response = connection.send(Requests.get("/sse?count=5&period=1")).read();
				assertThat(response.complete()).as("stream %d ended with its last chunk", i).isTrue();
				assertThat(response.bodyText()).isEqualTo(expected);
			}
		}
	}

	@ParameterizedTest
	@EnumSource
	void eachServerSentEventIsFlushedBeforeTheNextExists(Container container) throws Exception {
		SampleServer server = container.server();
		String name = "flush-" + container;
		Sinks.Many<String> events = server.bean(GatedEvents.class).open(name);
		events.tryEmitNext("first");
		List<String> lines = new CopyOnWriteArrayList<>();
		CompletableFuture<Void> reading = this.client
			.sendAsync(HttpRequest.newBuilder(server.uri("/sse/gated/" + name)).build(),
					HttpResponse.BodyHandlers.ofInputStream())
			.thenAcceptAsync((response) -> readLines(response.body(), lines));
		// Only "first" exists until the client has it: it can only get there through a flush.
		await().atMost(Duration.ofSeconds(10)).until(() -> lines.contains("data:first"));
		events.tryEmitNext("second");
		await().atMost(Duration.ofSeconds(10)).until(() -> lines.contains("data:second"));
		events.tryEmitComplete();
		reading.get(10, TimeUnit.SECONDS);
		assertThat(lines).containsExactly("data:first", "", "data:second", "");
	}

	private static void readLines(InputStream body, List<String> lines) {
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				lines.add(line);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
