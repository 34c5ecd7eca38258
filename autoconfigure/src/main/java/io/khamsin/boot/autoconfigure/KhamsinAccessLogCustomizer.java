package io.khamsin.boot.autoconfigure;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.container.accesslog.AccessLogConfig;

/**
 * Applies {@link KhamsinAccessLogProperties} to a {@link KhamsinReactiveWebServerFactory}.
 */
public class KhamsinAccessLogCustomizer
		implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final KhamsinAccessLogProperties properties;

	public KhamsinAccessLogCustomizer(KhamsinAccessLogProperties properties) {
		this.properties = properties;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		AccessLogConfig accessLog;
		try {
			accessLog = this.properties.toAccessLogConfig();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid khamsin.access-log settings: " + ex.getMessage(), ex);
		}
		factory.addConfigCustomizers((config) -> config.accessLog(accessLog));
	}

}
