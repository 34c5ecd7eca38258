package io.khamsin.boot.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.accesslog.AccessLogConfig;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinAccessLogCustomizerTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class));

	@Test
	void eachDefaultEqualsTheEngineDefault() {
		KhamsinAccessLogProperties properties = new Binder(new MapConfigurationPropertySource(Map.of()))
			.bindOrCreate("khamsin.access-log", KhamsinAccessLogProperties.class);
		assertThat(properties.toAccessLogConfig()).isEqualTo(AccessLogConfig.disabled());
	}

	@Test
	void accessLogPropertiesReachTheEngine() {
		this.runner
			.withPropertyValues("khamsin.access-log.enabled=true", "khamsin.access-log.format=combined",
					"khamsin.access-log.destination=stdout")
			.run((context) -> assertThat(config(context.getBean(KhamsinReactiveWebServerFactory.class)))
				.isEqualTo(new AccessLogConfig(true, "combined", "stdout", AccessLogConfig.DEFAULT_QUEUE_SIZE)));
	}

	@Test
	void aBadFormatFailsTheStartNamingTheProperty() {
		this.runner.withPropertyValues("khamsin.access-log.enabled=true", "khamsin.access-log.format=%h %y")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'%y'"));
		this.runner.withPropertyValues("khamsin.access-log.format=%y")
			.run((context) -> assertThat(context).getFailure().hasMessageContaining("khamsin.access-log"));
	}

	private static AccessLogConfig config(KhamsinReactiveWebServerFactory factory) {
		return ((KhamsinWebServer) factory.getWebServer(HANDLER)).getKhamsinServer().config().accessLog();
	}

}
