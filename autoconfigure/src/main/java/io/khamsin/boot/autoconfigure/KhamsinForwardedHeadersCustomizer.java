package io.khamsin.boot.autoconfigure;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.forwarded.KhamsinForwardedProperties;
import io.khamsin.container.forwarded.ForwardedConfig;

/**
 * Has the engine apply {@code Forwarded} and {@code X-Forwarded-*} headers from the proxies of
 * {@code khamsin.forwarded.trusted-proxies} when {@code server.forward-headers-strategy=native}, or when no strategy
 * is set and the application runs on a cloud platform that uses forwarded headers, as Boot decides for its own
 * containers. With {@code framework}, Spring's {@code ForwardedHeaderTransformer} applies them instead.
 */
public class KhamsinForwardedHeadersCustomizer
		implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final ServerProperties serverProperties;

	private final KhamsinForwardedProperties forwardedProperties;

	private final Environment environment;

	public KhamsinForwardedHeadersCustomizer(ServerProperties serverProperties,
			KhamsinForwardedProperties forwardedProperties, Environment environment) {
		this.serverProperties = serverProperties;
		this.forwardedProperties = forwardedProperties;
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		// Read now, so that a trusted proxy that is no address fails the start naming its property.
		ForwardedConfig forwarded = this.forwardedProperties.toForwardedConfig(
				this.serverProperties.getForwardHeadersStrategy(), CloudPlatform.getActive(this.environment));
		factory.addConfigCustomizers((config) -> config.forwarded(forwarded));
	}

}
