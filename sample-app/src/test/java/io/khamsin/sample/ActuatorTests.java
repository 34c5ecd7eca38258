package io.khamsin.sample;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The actuator endpoints that {@code application.yml} exposes over HTTP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActuatorTests {

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void healthIsUp(Container container) throws Exception {
		HttpResponse<String> response = get(container, "/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"status\":\"UP\"");
	}

	@ParameterizedTest
	@EnumSource
	void prometheusScrapeCountsServedRequests(Container container) throws Exception {
		get(container, "/plaintext");
		HttpResponse<String> response = get(container, "/actuator/prometheus");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		assertThat(response.body()).contains("http_server_requests_seconds_count{")
			.contains("uri=\"/plaintext\"");
	}

	@ParameterizedTest
	@EnumSource
	void httpServerRequestsCarryTheStatusAndOutcomeOfAResponseWhoseStatusWasNotSet(Container container)
			throws Exception {
		get(container, "/plaintext");
		assertThat(get(container, "/actuator/prometheus").body())
			.containsPattern("http_server_requests_seconds_count\\{[^}]*outcome=\"SUCCESS\",status=\"200\",uri=\"/plaintext\"}");
	}

	@ParameterizedTest
	@EnumSource
	void endpointsThatAreNotExposedAreNotFound(Container container) throws Exception {
		assertThat(get(container, "/actuator/env").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> get(Container container, String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(container.server().uri(path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
