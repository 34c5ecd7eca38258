package io.khamsin.boot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;

import io.khamsin.container.websocket.KhamsinRequestUpgradeStrategy;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinWebSocketAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class,
				KhamsinWebSocketAutoConfiguration.class));

	@Test
	void webFluxGetsKhamsinsUpgradeStrategyWithTheDefaultMessageSize() {
		this.runner.run((context) -> assertThat(strategy(context.getBean(WebFluxConfigurer.class))
			.getMaxFramePayloadLength()).isEqualTo(64 * 1024));
	}

	@Test
	void theLargestMessageIsSetByKhamsinWebsocketMaxMessageSize() {
		this.runner.withPropertyValues("khamsin.websocket.max-message-size=1MB")
			.run((context) -> assertThat(strategy(context.getBean(WebFluxConfigurer.class))
				.getMaxFramePayloadLength()).isEqualTo(1024 * 1024));
	}

	@Test
	void aMessageSizeOverTwoGigabytesFailsWithThePropertyName() {
		this.runner.withPropertyValues("khamsin.websocket.max-message-size=3GB")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("khamsin.websocket.max-message-size"));
	}

	@Test
	void stepsAsideWhenKhamsinIsDisabled() {
		this.runner.withPropertyValues("khamsin.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WebFluxConfigurer.class));
	}

	private static KhamsinRequestUpgradeStrategy strategy(WebFluxConfigurer configurer) {
		HandshakeWebSocketService service = (HandshakeWebSocketService) configurer.getWebSocketService();
		return (KhamsinRequestUpgradeStrategy) service.getUpgradeStrategy();
	}

}
