package io.khamsin.sample;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.web.server.WebServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.khamsin.boot.KhamsinWebServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The actuator endpoints on a port of their own ({@code management.server.port}): actuator serves them from a
 * second server, which runs on khamsin as it runs on Reactor Netty.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ManagementPortTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void actuatorAnswersOnTheManagementPortAndTheApplicationOnTheMainPort(Container container) throws Exception {
		try (SampleAppWithManagementPort app = new SampleAppWithManagementPort(container)) {
			assertThat(app.management().getPort()).isPositive().isNotEqualTo(app.main().getPort());
			HttpResponse<String> health = get(app.management(), "/actuator/health");
			assertThat(health.statusCode()).isEqualTo(200);
			assertThat(health.body()).contains("\"status\":\"UP\"");
			assertThat(get(app.main(), "/actuator/health").statusCode()).isEqualTo(404);
			HttpResponse<String> plaintext = get(app.main(), "/plaintext");
			assertThat(plaintext.statusCode()).isEqualTo(200);
			assertThat(plaintext.body()).isEqualTo("Hello, World!");
			assertThat(get(app.management(), "/plaintext").statusCode()).isEqualTo(404);
		}
	}

	@ParameterizedTest
	@EnumSource
	void theManagementServerRunsOnTheApplicationsContainer(Container container) {
		try (SampleAppWithManagementPort app = new SampleAppWithManagementPort(container)) {
			assertThat(container.runs(app.main().getClass())).as("main server %s", app.main().getClass()).isTrue();
			assertThat(container.runs(app.management().getClass()))
				.as("management server %s", app.management().getClass())
				.isTrue();
		}
	}

	@ParameterizedTest
	@EnumSource
	void bothServersStopWhenTheContextCloses(Container container) throws Exception {
		SampleAppWithManagementPort app = new SampleAppWithManagementPort(container);
		int main = app.main().getPort();
		int management = app.management().getPort();
		try {
			connect(main);
			connect(management);
		}
		finally {
			app.close();
		}
		assertThatExceptionOfType(ConnectException.class).as("main port %d", main).isThrownBy(() -> connect(main));
		assertThatExceptionOfType(ConnectException.class).as("management port %d", management)
			.isThrownBy(() -> connect(management));
	}

	@Test
	void theKhamsinManagementServerListensOnManagementServerAddressWithOneReactor() {
		try (SampleAppWithManagementPort app = new SampleAppWithManagementPort(Container.KHAMSIN)) {
			KhamsinWebServer management = (KhamsinWebServer) app.management();
			assertThat(management.getKhamsinServer().config().address().getHostAddress()).isEqualTo("127.0.0.1");
			assertThat(management.getKhamsinServer().config().reactors()).isEqualTo(1);
			assertThat(management.getKhamsinServer().config().fixedResponses()).isEmpty();
		}
	}

	@Test
	void khamsinEndpointsOnTheManagementPortReportTheMainServerAlone() throws Exception {
		try (SampleAppWithManagementPort app = new SampleAppWithManagementPort(Container.KHAMSIN)) {
			for (int i = 0; i < 3; i++) {
				assertThat(get(app.main(), "/plaintext").statusCode()).isEqualTo(200);
			}
			await().atMost(Duration.ofSeconds(30))
				.until(() -> khamsin(app).path("totals").path("requests").asLong() == 3);
			for (int i = 0; i < 5; i++) {
				assertThat(get(app.management(), "/actuator/health").statusCode()).isEqualTo(200);
			}
			JsonNode khamsin = khamsin(app);
			assertThat(khamsin.path("server").path("port").asInt()).isEqualTo(app.main().getPort());
			assertThat(khamsin.path("reactors")).as("khamsin.reactors=2 of the main server").hasSize(2);
			assertThat(khamsin.path("totals").path("requests").asLong()).as("requests to the main server")
				.isEqualTo(3);
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(latencyRoutes(app)).containsExactly("/plaintext"));
			KhamsinWebServer management = (KhamsinWebServer) app.management();
			assertThat(management.getKhamsinServer().metrics().totals().requests())
				.as("requests to the management server, recorded apart")
				.isGreaterThanOrEqualTo(5);
		}
	}

	private JsonNode khamsin(SampleAppWithManagementPort app) throws Exception {
		HttpResponse<String> response = get(app.management(), "/actuator/khamsin");
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private List<String> latencyRoutes(SampleAppWithManagementPort app) throws Exception {
		HttpResponse<String> response = get(app.management(), "/actuator/latency");
		assertThat(response.statusCode()).isEqualTo(200);
		List<String> routes = new ArrayList<>();
		for (JsonNode entry : json.readTree(response.body()).path("sinceStart")) {
			routes.add(entry.path("route").asString());
		}
		return routes;
	}

	private HttpResponse<String> get(WebServer server, String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(SampleAppWithManagementPort.uri(server, path))
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static void connect(int port) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			assertThat(socket.isConnected()).isTrue();
		}
	}

}
