package io.khamsin.boot.autoconfigure;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;

/**
 * Applies {@link KhamsinShutdownProperties} ({@code khamsin.shutdown.*}) to a {@link KhamsinReactiveWebServerFactory},
 * whose shutdown mode itself is Boot's {@code server.shutdown}.
 */
public class KhamsinShutdownCustomizer implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final KhamsinShutdownProperties properties;

	public KhamsinShutdownCustomizer(KhamsinShutdownProperties properties) {
		this.properties = properties;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		factory.setShutdownDelay(this.properties.delay());
	}

}
