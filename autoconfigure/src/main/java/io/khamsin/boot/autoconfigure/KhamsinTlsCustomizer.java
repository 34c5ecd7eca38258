package io.khamsin.boot.autoconfigure;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.tls.KhamsinTlsProperties;

/**
 * Applies {@link KhamsinTlsProperties} ({@code khamsin.tls.*}) to a {@link KhamsinReactiveWebServerFactory}, whose
 * SSL itself is Boot's {@code server.ssl.*}, applied by Boot's own {@code ReactiveWebServerFactoryCustomizer}.
 */
public class KhamsinTlsCustomizer implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final KhamsinTlsProperties properties;

	public KhamsinTlsCustomizer(KhamsinTlsProperties properties) {
		this.properties = properties;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		factory.setTlsProperties(this.properties);
	}

}
