package io.khamsin.sample;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

/**
 * Maps the WebSocket echo to {@code /ws/echo}. The upgrade goes through whatever {@code RequestUpgradeStrategy}
 * the running container brings.
 */
@Configuration(proxyBeanMethods = false)
class EchoWebSocketConfiguration {

	@Bean
	HandlerMapping echoWebSocketMapping() {
		return new SimpleUrlHandlerMapping(Map.of("/ws/echo", new EchoWebSocketHandler()), Ordered.HIGHEST_PRECEDENCE);
	}

}
