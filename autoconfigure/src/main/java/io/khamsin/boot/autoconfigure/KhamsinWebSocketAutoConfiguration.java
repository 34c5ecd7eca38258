package io.khamsin.boot.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;

import io.khamsin.container.websocket.KhamsinRequestUpgradeStrategy;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of WebSocket for WebFlux on khamsin. WebFlux picks its
 * upgrade strategy by the classes present and knows only Reactor Netty's, Jetty's and the standard one; this
 * hands it khamsin's, which falls back to that default when a request is served by another container.
 */
@AutoConfiguration(after = KhamsinReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass({ WebFluxConfigurer.class, KhamsinRequestUpgradeStrategy.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
public final class KhamsinWebSocketAutoConfiguration {

	@Bean
	WebFluxConfigurer khamsinWebSocketConfigurer(ObjectProvider<KhamsinProperties> properties) {
		KhamsinProperties khamsin = properties.getIfAvailable();
		long maxMessageSize = (khamsin != null) ? khamsin.websocket().maxMessageSize().toBytes()
				: KhamsinRequestUpgradeStrategy.DEFAULT_MAX_FRAME_PAYLOAD_LENGTH;
		if (maxMessageSize <= 0 || maxMessageSize > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("khamsin.websocket.max-message-size must be between 1 B and "
					+ Integer.MAX_VALUE + " B, was " + maxMessageSize + " B");
		}
		WebSocketService service = new HandshakeWebSocketService(
				new KhamsinRequestUpgradeStrategy((int) maxMessageSize));
		return new WebFluxConfigurer() {

			@Override
			public WebSocketService getWebSocketService() {
				return service;
			}

		};
	}

}
