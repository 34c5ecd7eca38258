package io.khamsin.boot;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.FixedResponse;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.KhamsinServerCustomizer;
import io.khamsin.container.ListenerMode;
import io.khamsin.container.Transport;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class KhamsinReactiveWebServerFactoryTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	@Test
	void anUnconfiguredFactoryGivesTheEngineItsDefaultsOnBootsDefaultPort() {
		KhamsinServerConfig config = configOf(new KhamsinReactiveWebServerFactory());
		assertThat(config).isEqualTo(KhamsinServerConfig.builder().port(8080).build());
	}

	@Test
	void everySettingReachesTheEngine() throws Exception {
		KhamsinServerCustomizer first = (bootstrap) -> {
		};
		KhamsinServerCustomizer second = (bootstrap) -> {
		};
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setAddress(InetAddress.getLoopbackAddress());
		factory.setServerHeader("khamsin");
		factory.setReactors(3);
		factory.setTransport(Transport.NIO);
		factory.setListener(ListenerMode.SHARED);
		factory.setMaxInitialLineLength(1024);
		factory.setMaxHeaderSize(16 * 1024);
		factory.setIdleTimeout(Duration.ofSeconds(5));
		factory.setHeaderReadTimeout(Duration.ofSeconds(2));
		factory.setBodyReadTimeout(Duration.ofSeconds(3));
		factory.setMaxConnections(100);
		factory.setMaxRequestBodySize(1_000_000);
		factory.addServerCustomizers(first, second);
		FixedResponse health = FixedResponse.of("/health", 200, "text/plain", "UP");
		factory.getFixedResponses().add(health);
		assertThat(configOf(factory)).isEqualTo(new KhamsinServerConfig(InetAddress.getLoopbackAddress(), 0, 3,
				Transport.NIO, ListenerMode.SHARED, 1024, 16 * 1024, Duration.ofSeconds(5), Duration.ofSeconds(2),
				Duration.ofSeconds(3), 100, 1_000_000, "khamsin", List.of(health), List.of(first, second)));
	}

	@Test
	void setServerCustomizersReplacesThoseAlreadyAdded() {
		KhamsinServerCustomizer replaced = (bootstrap) -> {
		};
		KhamsinServerCustomizer kept = (bootstrap) -> {
		};
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.addServerCustomizers(replaced);
		factory.setServerCustomizers(List.of(kept));
		assertThat(configOf(factory).customizers()).containsExactly(kept);
	}

	@Test
	void sslHttp2AndCompressionAreIgnoredWithOneWarning(CapturedOutput output) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		Ssl ssl = new Ssl();
		ssl.setEnabled(true);
		factory.setSsl(ssl);
		Http2 http2 = new Http2();
		http2.setEnabled(true);
		factory.setHttp2(http2);
		Compression compression = new Compression();
		compression.setEnabled(true);
		factory.setCompression(compression);
		factory.getWebServer(HANDLER);
		assertThat(output).containsOnlyOnce("WARN")
			.contains("khamsin does not support server.ssl, server.http2.enabled, server.compression.enabled yet: "
					+ "ignored");
	}

	@Test
	void noWarningWhenSslHttp2AndCompressionAreOff(CapturedOutput output) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setHttp2(new Http2());
		factory.setCompression(new Compression());
		factory.getWebServer(HANDLER);
		assertThat(output).doesNotContain("khamsin does not support");
	}

	@Test
	void immediateShutdownReportsImmediateAtOnce() {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setShutdown(Shutdown.IMMEDIATE);
		List<GracefulShutdownResult> results = new ArrayList<>();
		factory.getWebServer(HANDLER).shutDownGracefully(results::add);
		assertThat(results).containsExactly(GracefulShutdownResult.IMMEDIATE);
	}

	private static KhamsinServerConfig configOf(KhamsinReactiveWebServerFactory factory) {
		return ((KhamsinWebServer) factory.getWebServer(HANDLER)).getKhamsinServer().config();
	}

}
