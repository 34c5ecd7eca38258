package io.khamsin.sample;

import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a handler learns about its exchange beyond the body: cookies sent and received, and the addresses of the
 * connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CookiesAndAddressesTests {

	@ParameterizedTest
	@EnumSource
	void cookiesSetByTheServerComeBackToIt(Container container) throws Exception {
		HttpClient client = HttpClients.builder().cookieHandler(new CookieManager()).build();
		HttpResponse<Void> set = client.send(
				HttpRequest.newBuilder(container.server().uri("/cookies/set?flavour=oatmeal&size=large")).build(),
				HttpResponse.BodyHandlers.discarding());
		assertThat(set.statusCode()).isEqualTo(204);
		// Attribute names are case-insensitive (RFC 6265 section 5.2): Netty writes "HTTPOnly".
		assertThat(set.headers().allValues("Set-Cookie")).map((cookie) -> cookie.toLowerCase(Locale.ROOT))
			.containsExactlyInAnyOrder("flavour=oatmeal; path=/; httponly", "size=large; path=/; httponly");
		HttpResponse<String> read = client.send(HttpRequest.newBuilder(container.server().uri("/cookies")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(read.body()).isEqualTo("flavour=oatmeal\nsize=large");
	}

	@ParameterizedTest
	@EnumSource
	void severalCookiesInOneHeaderAreEachSeen(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection
				.send("GET /cookies HTTP/1.1\r\nHost: localhost\r\nCookie: b=2; a=1; c=\"three\"\r\n\r\n")
				.read();
			assertThat(response.bodyText()).isEqualTo("a=1\nb=2\nc=three");
		}
	}

	@ParameterizedTest
	@EnumSource
	void handlerSeesTheRemoteAndLocalAddressesOfTheConnection(Container container) throws Exception {
		SampleServer server = container.server();
		try (RawHttpConnection connection = new RawHttpConnection(server.port())) {
			RawHttpConnection.Response response = connection.send(Requests.get("/addresses")).read();
			assertThat(response.bodyText())
				.isEqualTo("remote=127.0.0.1:" + connection.localPort() + " local=127.0.0.1:" + server.port());
		}
	}

}
