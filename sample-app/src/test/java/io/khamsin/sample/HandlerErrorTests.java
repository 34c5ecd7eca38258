package io.khamsin.sample;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler that fails: before its response is committed the client gets a 500; after, the body is cut short
 * and the connection closed, so that no client takes a truncated body for a whole one. Either way the server
 * keeps serving.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandlerErrorTests {

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void errorBeforeCommitIsAnInternalServerError(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection.send(Requests.get("/boom")).read();
			assertThat(response.status()).isEqualTo(500);
			assertThat(response.complete()).isTrue();
		}
		assertServerKeepsServing(container);
	}

	@ParameterizedTest
	@EnumSource
	void errorAfterCommitCutsTheBodyShortAndClosesTheConnection(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection.send(Requests.get("/boom-mid-stream")).read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).startsWith("data:partial\n\n");
			assertThat(response.complete()).as("the body ended with its last chunk").isFalse();
			assertThat(connection.isClosedByServer()).isTrue();
		}
		assertServerKeepsServing(container);
	}

	private void assertServerKeepsServing(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/plaintext")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("Hello, World!");
	}

}
