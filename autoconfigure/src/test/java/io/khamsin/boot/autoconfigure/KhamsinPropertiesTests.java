package io.khamsin.boot.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.ListenerMode;
import io.khamsin.container.Transport;

import static org.assertj.core.api.Assertions.assertThat;

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
		assertThat(properties.maxConnections()).isEqualTo(KhamsinServerConfig.DEFAULT_MAX_CONNECTIONS);
		assertThat(properties.maxRequestBodySize().toBytes())
			.isEqualTo(KhamsinServerConfig.DEFAULT_MAX_REQUEST_BODY_SIZE);
		assertThat(new ServerProperties().getMaxHttpRequestHeaderSize().toBytes())
			.as("Boot's server.max-http-request-header-size")
			.isEqualTo(KhamsinServerConfig.DEFAULT_MAX_HEADER_SIZE);
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

	private static KhamsinProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("khamsin",
				KhamsinProperties.class);
	}

}
