package io.khamsin.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.OverloadConfig;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KhamsinPropertiesTests {

	@Test
	void eachDefaultEqualsTheEngineDefault() {
		KhamsinProperties properties = bind(Map.of());
		assertThat(properties.enabled()).isTrue();
		assertThat(properties.reactors()).as("reactors, left to the engine").isNull();
		assertThat(properties.transport()).isEqualTo(KhamsinServerConfig.defaults().transport());
		assertThat(properties.listener()).isEqualTo(KhamsinServerConfig.defaults().listener());
		assertThat(properties.maxInitialLineLength().toBytes())
			.isEqualTo(KhamsinServerConfig.DEFAULT_MAX_INITIAL_LINE_LENGTH);
		assertThat(properties.idleTimeout()).isEqualTo(KhamsinServerConfig.DEFAULT_IDLE_TIMEOUT);
		assertThat(properties.headerReadTimeout()).isEqualTo(KhamsinServerConfig.DEFAULT_HEADER_READ_TIMEOUT);
		assertThat(properties.bodyReadTimeout()).isEqualTo(KhamsinServerConfig.DEFAULT_BODY_READ_TIMEOUT);
		assertThat(properties.minRequestBodyRate().toBytes())
			.isEqualTo(KhamsinServerConfig.DEFAULT_MIN_REQUEST_BODY_RATE);
		assertThat(properties.sendTimeout()).isEqualTo(KhamsinServerConfig.DEFAULT_SEND_TIMEOUT);
		assertThat(properties.requestTimeout()).isEqualTo(KhamsinServerConfig.defaults().requestTimeout()).isNull();
		assertThat(properties.maxConnections()).isEqualTo(KhamsinServerConfig.DEFAULT_MAX_CONNECTIONS);
		assertThat(properties.overload().maxQueueDelay()).isEqualTo(KhamsinServerConfig.defaults().overload().maxQueueDelay())
			.isNull();
		assertThat(properties.overload().retryAfter()).isEqualTo(OverloadConfig.DEFAULT_RETRY_AFTER);
		assertThat(properties.maxRequestBodySize().toBytes())
			.isEqualTo(KhamsinServerConfig.DEFAULT_MAX_REQUEST_BODY_SIZE);
		assertThat(new ServerProperties().getMaxHttpRequestHeaderSize().toBytes())
			.as("Boot's server.max-http-request-header-size")
			.isEqualTo(KhamsinServerConfig.DEFAULT_MAX_HEADER_SIZE);
	}

	@Test
	void eachHttp2DefaultEqualsTheEngineDefault() {
		KhamsinProperties.Http2Properties http2 = bind(Map.of()).http2();
		assertThat(http2.maxConcurrentStreams()).isEqualTo(Http2Config.DEFAULT_MAX_CONCURRENT_STREAMS);
		assertThat(http2.initialWindowSize().toBytes()).isEqualTo(Http2Config.DEFAULT_INITIAL_WINDOW_SIZE);
		assertThat(http2.connectionWindowSize().toBytes()).isEqualTo(Http2Config.DEFAULT_CONNECTION_WINDOW_SIZE);
		assertThat(http2.maxFrameSize().toBytes()).isEqualTo(Http2Config.DEFAULT_MAX_FRAME_SIZE);
		assertThat(http2.maxHeaderListSize().toBytes()).isEqualTo(Http2Config.DEFAULT_MAX_HEADER_LIST_SIZE);
		assertThat(http2.maxResetsPerWindow()).isEqualTo(Http2Config.DEFAULT_MAX_RESETS_PER_WINDOW);
		assertThat(http2.resetWindow()).isEqualTo(Http2Config.DEFAULT_RESET_WINDOW);
		assertThat(http2.maxConsecutiveEmptyDataFrames())
			.isEqualTo(Http2Config.DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES);
		assertThat(http2.maxQueuedControlFrames()).isEqualTo(Http2Config.DEFAULT_MAX_QUEUED_CONTROL_FRAMES);
		assertThat(http2.maxSmallContinuationFrames()).isEqualTo(Http2Config.DEFAULT_MAX_SMALL_CONTINUATION_FRAMES);
		assertThat(http2.maxWindowUpdatesPerDataFrame())
			.isEqualTo(Http2Config.DEFAULT_MAX_WINDOW_UPDATES_PER_DATA_FRAME);
	}

	@Test
	void eachHttp3DefaultEqualsTheEngineDefault() {
		KhamsinProperties.Http3Properties http3 = bind(Map.of()).http3();
		Http3Config engine = Http3Config.defaults();
		assertThat(http3.enabled()).isEqualTo(engine.enabled()).isFalse();
		assertThat(http3.idleTimeout()).isEqualTo(engine.idleTimeout());
		assertThat(http3.maxConcurrentStreams()).isEqualTo(engine.maxBidirectionalStreams());
		assertThat(http3.maxUnidirectionalStreams()).isEqualTo(engine.maxUnidirectionalStreams());
		assertThat(http3.connectionWindowSize().toBytes()).isEqualTo(engine.initialMaxData());
		assertThat(http3.streamWindowSize().toBytes()).isEqualTo(engine.initialMaxStreamData());
		assertThat(http3.maxUdpPayloadSize().toBytes()).isEqualTo(engine.maxUdpPayloadSize());
		assertThat(http3.receiveBufferSize().toBytes()).isEqualTo(engine.receiveBufferSize());
		assertThat(http3.maxResetsPerWindow()).isEqualTo(engine.maxResetsPerWindow());
		assertThat(http3.resetWindow()).isEqualTo(engine.resetWindow());
		assertThat(http3.congestionControl()).isEqualTo(engine.congestionControl());
		assertThat(http3.earlyData()).isEqualTo(engine.earlyData()).isFalse();
		assertThat(http3.retry()).isEqualTo(engine.retry()).isTrue();
		assertThat(http3.altSvcMaxAge()).isEqualTo(engine.altSvcMaxAge());
	}

	@Test
	void defaultPropertiesGiveTheEngineExactlyItsDefaultConfiguration() {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		new KhamsinReactiveWebServerFactoryCustomizer(new ServerProperties(), bind(Map.of())).customize(factory);
		HttpHandler handler = (request, response) -> response.setComplete();
		KhamsinServerConfig config = ((KhamsinWebServer) factory.getWebServer(handler)).getKhamsinServer().config();
		assertThat(config).isEqualTo(KhamsinServerConfig.defaults());
	}

	@Test
	void transportAndListenerBindFromTheirKebabCaseNames() {
		KhamsinProperties properties = bind(Map.of("khamsin.transport", "io-uring", "khamsin.listener", "shared"));
		assertThat(properties.transport()).isEqualTo(Transport.IO_URING);
		assertThat(properties.listener()).isEqualTo(ListenerMode.SHARED);
	}

	@Test
	void fixedResponsesBindAndReachTheEngine() {
		KhamsinProperties properties = bind(Map.of("khamsin.fixed-responses[0].path", "/health",
				"khamsin.fixed-responses[0].content-type", "application/json",
				"khamsin.fixed-responses[0].body", "{\"status\":\"UP\"}",
				"khamsin.fixed-responses[0].headers.Cache-Control", "no-store",
				"khamsin.fixed-responses[1].path", "/ready", "khamsin.fixed-responses[1].status", "503"));
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		new KhamsinReactiveWebServerFactoryCustomizer(new ServerProperties(), properties).customize(factory);
		HttpHandler handler = (request, response) -> response.setComplete();
		KhamsinServerConfig config = ((KhamsinWebServer) factory.getWebServer(handler)).getKhamsinServer().config();
		assertThat(config.fixedResponses()).hasSize(2);
		FixedResponse health = config.fixedResponses().get(0);
		assertThat(health.path()).isEqualTo("/health");
		assertThat(health.status()).isEqualTo(200);
		assertThat(health.contentType()).isEqualTo("application/json");
		assertThat(new String(health.body(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"UP\"}");
		assertThat(health.headers()).containsExactly(Map.entry("Cache-Control", "no-store"));
		FixedResponse ready = config.fixedResponses().get(1);
		assertThat(ready.status()).isEqualTo(503);
		assertThat(ready.contentType()).isEqualTo("text/plain");
		assertThat(ready.body()).isEmpty();
	}

	@Test
	void anInvalidFixedResponseNamesItsProperty() {
		KhamsinProperties properties = bind(Map.of("khamsin.fixed-responses[0].path", "health"));
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new KhamsinReactiveWebServerFactoryCustomizer(new ServerProperties(), properties)
				.customize(factory))
			.withMessageStartingWith("khamsin.fixed-responses[0]: ")
			.withMessageContaining("must start with '/'");
	}

	private static KhamsinProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("khamsin",
				KhamsinProperties.class);
	}

}
