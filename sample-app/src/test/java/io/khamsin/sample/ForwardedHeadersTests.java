package io.khamsin.sample;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app behind a proxy, with {@code server.forward-headers-strategy=native}: the links WebFlux builds (the
 * actuator's {@code _links}) carry the scheme, host and port the proxy's {@code X-Forwarded-*} and
 * {@code Forwarded} headers give, when the proxy is trusted, and the connection's own when it is not.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForwardedHeadersTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static String selfLink(CachingSampleApp app, String... headers) {
		CommandLine.Result result = app.curl("/actuator", headers);
		String body = result.output().substring(result.output().indexOf("\r\n\r\n") + 4);
		JsonNode links = json.readTree(body).path("_links");
		return links.path("self").path("href").asString();
	}

	@Test
	void linksCarryTheSchemeAndHostATrustedProxyForwarded() {
		try (CachingSampleApp app = new CachingSampleApp("--server.forward-headers-strategy=native")) {
			assertThat(selfLink(app, "-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: shop.example.com",
					"-H", "X-Forwarded-Port: 443")).isEqualTo("https://shop.example.com/actuator");
			assertThat(selfLink(app, "-H", "Forwarded: for=203.0.113.7;proto=https;host=store.example.org"))
				.isEqualTo("https://store.example.org/actuator");
			assertThat(selfLink(app)).isEqualTo("http://" + CachingSampleApp.HOST + "/actuator");
		}
	}

	@Test
	void theHeadersOfAPeerThatIsNotATrustedProxyAreIgnored() {
		try (CachingSampleApp app = new CachingSampleApp("--server.forward-headers-strategy=native",
				"--khamsin.forwarded.trusted-proxies=10.0.0.0/8")) {
			assertThat(selfLink(app, "-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: evil.example"))
				.isEqualTo("http://" + CachingSampleApp.HOST + "/actuator");
		}
	}

}
