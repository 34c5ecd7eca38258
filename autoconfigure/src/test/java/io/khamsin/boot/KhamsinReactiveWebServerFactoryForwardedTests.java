package io.khamsin.boot;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import io.khamsin.container.forwarded.ForwardedConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Boot asks of its own containers when they apply forwarded headers themselves
 * ({@code server.forward-headers-strategy=native}), asked of khamsin's factory with Reactor Netty's client from
 * loopback, which the default trusted proxies include: {@code X-Forwarded-Proto} and {@code Forwarded} give the
 * request's scheme; with forwarded headers off, or from a peer that is not trusted, they do not.
 */
@Timeout(30)
class KhamsinReactiveWebServerFactoryForwardedTests {

	private static final HttpHandler SCHEME = (request, response) -> response.writeWith(Mono.just(
			response.bufferFactory().wrap(request.getURI().getScheme().getBytes(StandardCharsets.UTF_8))));

	private WebServer webServer;

	@AfterEach
	void stop() {
		if (this.webServer != null) {
			this.webServer.destroy();
		}
	}

	@Test
	void xForwardedProtoIsTheRequestsScheme() {
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		assertThat(scheme("X-Forwarded-Proto", "https")).isEqualTo("https");
	}

	@Test
	void theForwardedHeadersProtoIsTheRequestsScheme() {
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		assertThat(scheme("Forwarded", "proto=https")).isEqualTo("https");
	}

	@Test
	void forwardedHeadersOffOrFromAPeerThatIsNotTrustedLeaveTheScheme() {
		start(ForwardedConfig.disabled());
		assertThat(scheme("X-Forwarded-Proto", "https")).isEqualTo("http");
		this.webServer.destroy();
		start(ForwardedConfig.trusting(List.of("10.0.0.0/8")));
		assertThat(scheme("X-Forwarded-Proto", "https")).isEqualTo("http");
	}

	private void start(ForwardedConfig forwarded) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.addConfigCustomizers((config) -> config.reactors(1).forwarded(forwarded));
		this.webServer = factory.getWebServer(SCHEME);
		this.webServer.start();
	}

	private String scheme(String header, String value) {
		return WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(HttpClient.create()))
			.baseUrl("http://localhost:" + this.webServer.getPort())
			.build()
			.get()
			.header(header, value)
			.retrieve()
			.bodyToMono(String.class)
			.block(Duration.ofSeconds(30));
	}

}
