package io.khamsin.boot;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.unit.DataSize;

import io.khamsin.boot.tls.KhamsinTlsProperties;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.transport.KhamsinServerCustomizer;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

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
	void bootsSettingsAndTheConfigCustomizersReachTheEngineInOrder() throws Exception {
		KhamsinServerCustomizer first = (bootstrap) -> {
		};
		KhamsinServerCustomizer second = (bootstrap) -> {
		};
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setAddress(InetAddress.getLoopbackAddress());
		factory.setServerHeader("khamsin");
		FixedResponse health = FixedResponse.of("/health", 200, "text/plain", "UP");
		factory.addConfigCustomizers((config) -> config.reactors(3).transport(Transport.NIO).maxConnections(50),
				(config) -> config.listener(ListenerMode.SHARED).maxConnections(100).fixedResponse(health));
		factory.addServerCustomizers(first, second);
		assertThat(configOf(factory)).isEqualTo(KhamsinServerConfig.builder()
			.address(InetAddress.getLoopbackAddress())
			.port(0)
			.serverHeader("khamsin")
			.reactors(3)
			.transport(Transport.NIO)
			.listener(ListenerMode.SHARED)
			.maxConnections(100)
			.fixedResponse(health)
			.customizers(List.of(first, second))
			.build());
	}

	@Test
	void setConfigCustomizersReplacesThoseAlreadyAdded() {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.addConfigCustomizers((config) -> config.reactors(3));
		factory.setConfigCustomizers(List.of((config) -> config.maxConnections(7)));
		KhamsinServerConfig config = configOf(factory);
		assertThat(config.reactors()).isEqualTo(KhamsinServerConfig.DEFAULT_REACTORS);
		assertThat(config.maxConnections()).isEqualTo(7);
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
	void bootsHttp2SettingTurnsOnHttp2WithTheSettingsTheCustomizersGaveIt() {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.addConfigCustomizers(
				(config) -> config.http2(Http2Config.builder().maxConcurrentStreams(7).build()));
		assertThat(configOf(factory).http2().enabled()).isFalse();
		factory.setHttp2(http2(true));
		assertThat(configOf(factory).http2())
			.isEqualTo(Http2Config.builder().enabled(true).maxConcurrentStreams(7).build());
	}

	@Test
	void whenHttp2IsEnabledAndSslIsDisabledThenH2cCanBeUsed() throws Exception {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setHttp2(http2(true));
		WebServer server = factory.getWebServer(
				(request, response) -> response.writeWith(request.getBody()));
		server.start();
		org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
				new HttpClientTransportOverHTTP2(new HTTP2Client()));
		client.start();
		try {
			ContentResponse response = client.POST("http://localhost:" + server.getPort())
				.body(new StringRequestContent("text/plain", "Hello World"))
				.send();
			assertThat(response.getStatus()).isEqualTo(200);
			assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
			assertThat(response.getContentAsString()).isEqualTo("Hello World");
		}
		finally {
			client.stop();
			server.stop();
		}
	}

	private static Http2 http2(boolean enabled) {
		Http2 http2 = new Http2();
		http2.setEnabled(enabled);
		return http2;
	}

	@Test
	void compressionReachesTheEngineWithoutAWarning(CapturedOutput output) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		Compression compression = new Compression();
		compression.setEnabled(true);
		compression.setMimeTypes(new String[] { "application/json" });
		compression.setMinResponseSize(DataSize.ofKilobytes(1));
		compression.setExcludedUserAgents(new String[] { "legacy" });
		factory.setCompression(compression);
		assertThat(configOf(factory).compression())
			.isEqualTo(CompressionConfig.of(true, List.of("application/json"), 1024, List.of("legacy")));
		assertThat(output).doesNotContain("khamsin does not support");
	}

	@Test
	void sslIsServedWithoutAWarning(CapturedOutput output) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setTlsProperties(selfSigned());
		KhamsinServerConfig config = configOf(factory);
		assertThat(config.tls()).isNotNull();
		assertThat(output).doesNotContain("khamsin does not support");
	}

	@Test
	void noWarningWhenHttp2IsOff(CapturedOutput output) {
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

	private static KhamsinTlsProperties selfSigned() {
		KhamsinTlsProperties defaults = KhamsinTlsProperties.defaults();
		return new KhamsinTlsProperties(defaults.provider(), true, defaults.sessionCacheSize(), defaults.sessionTimeout(),
				defaults.ticketKeyRotation(), defaults.handshakeTimeout());
	}

	private static KhamsinServerConfig configOf(KhamsinReactiveWebServerFactory factory) {
		return ((KhamsinWebServer) factory.getWebServer(HANDLER)).getKhamsinServer().config();
	}

}
