package io.khamsin.sample;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fixed-length bodies each way, as the JDK HTTP client sees them: text, JSON, HTML, and a body the handler
 * rejects.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BodiesTests {

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void plaintextIsThirteenBytesOfTextPlain(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/plaintext")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("Hello, World!");
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(13);
	}

	@ParameterizedTest
	@EnumSource
	void orderPostedAsJsonIsConfirmedWithItsTotals(Container container) throws Exception {
		byte[] order = order();
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/json"))
					.header("Content-Type", "application/json")
					.header("Accept", "application/json")
					.POST(HttpRequest.BodyPublishers.ofByteArray(order))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(order.length).isBetween(900, 1100);
		assertThat(response.body().length()).isBetween(900, 1500);
		DocumentContext confirmation = JsonPath.parse(response.body());
		assertThat(confirmation.read("$.orderId", String.class)).isEqualTo("ord-2024-000417");
		assertThat(confirmation.read("$.status", String.class)).isEqualTo("ACCEPTED");
		assertThat(confirmation.read("$.lines.length()", Integer.class)).isEqualTo(5);
		assertThat(confirmation.read("$.lines[1].lineTotal", String.class)).isEqualTo("13.96");
		assertThat(confirmation.read("$.subtotal", String.class)).isEqualTo("183.86");
		assertThat(confirmation.read("$.tax", String.class)).isEqualTo("36.77");
		assertThat(confirmation.read("$.total", String.class)).isEqualTo("220.63");
		assertThat(confirmation.read("$.shippingAddress.city", String.class)).isEqualTo("London");
	}

	@ParameterizedTest
	@EnumSource
	void orderWithoutItemsIsABadRequest(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/json"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"empty\",\"items\":[]}"))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
	}

	@ParameterizedTest
	@EnumSource
	void pageIsRenderedAsHtml(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/page/42")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/html"));
		assertThat(response.body()).startsWith("<!DOCTYPE html>").contains("<h1>Product 42</h1>");
	}

	static byte[] order() throws Exception {
		try (InputStream in = BodiesTests.class.getResourceAsStream("/order.json")) {
			return in.readAllBytes();
		}
	}

	static String orderText() throws Exception {
		return new String(order(), StandardCharsets.UTF_8);
	}

}
