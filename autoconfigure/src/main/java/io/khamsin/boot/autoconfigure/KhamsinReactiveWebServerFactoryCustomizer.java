package io.khamsin.boot.autoconfigure;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties.ForwardHeadersStrategy;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;

/**
 * Applies {@link KhamsinProperties} and the khamsin-specific {@code server.*} settings (request header size,
 * server header) to a {@link KhamsinReactiveWebServerFactory}. Port, address, shutdown, SSL, HTTP/2 and
 * compression are applied by Boot's own {@code ReactiveWebServerFactoryCustomizer}.
 */
public class KhamsinReactiveWebServerFactoryCustomizer
		implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinReactiveWebServerFactoryCustomizer.class);

	private final ServerProperties serverProperties;

	private final KhamsinProperties khamsinProperties;

	public KhamsinReactiveWebServerFactoryCustomizer(ServerProperties serverProperties,
			KhamsinProperties khamsinProperties) {
		this.serverProperties = serverProperties;
		this.khamsinProperties = khamsinProperties;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		PropertyMapper map = PropertyMapper.get();
		KhamsinProperties khamsin = this.khamsinProperties;
		map.from(khamsin::reactors).to(factory::setReactors);
		map.from(khamsin::transport).to(factory::setTransport);
		map.from(khamsin::listener).to(factory::setListener);
		map.from(khamsin::maxInitialLineLength)
			.as((size) -> toInt("khamsin.max-initial-line-length", size))
			.to(factory::setMaxInitialLineLength);
		map.from(khamsin::idleTimeout).to(factory::setIdleTimeout);
		map.from(khamsin::headerReadTimeout).to(factory::setHeaderReadTimeout);
		map.from(khamsin::bodyReadTimeout).to(factory::setBodyReadTimeout);
		map.from(khamsin::maxConnections).to(factory::setMaxConnections);
		map.from(khamsin::maxRequestBodySize).as(DataSize::toBytes).to(factory::setMaxRequestBodySize);
		List<KhamsinProperties.FixedResponseProperties> fixed = khamsin.fixedResponses();
		for (int i = 0; i < fixed.size(); i++) {
			try {
				factory.getFixedResponses().add(fixed.get(i).toFixedResponse());
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("khamsin.fixed-responses[" + i + "]: " + ex.getMessage(), ex);
			}
		}
		map.from(this.serverProperties::getMaxHttpRequestHeaderSize)
			.as((size) -> toInt("server.max-http-request-header-size", size))
			.to(factory::setMaxHeaderSize);
		map.from(this.serverProperties::getServerHeader).to(factory::setServerHeader);
		if (this.serverProperties.getForwardHeadersStrategy() == ForwardHeadersStrategy.NATIVE) {
			logger.warn("khamsin does not read X-Forwarded-* and Forwarded headers itself yet: "
					+ "server.forward-headers-strategy=native is ignored. Set it to 'framework' instead");
		}
	}

	private static int toInt(String property, DataSize size) {
		long bytes = size.toBytes();
		if (bytes > Integer.MAX_VALUE) {
			throw new IllegalArgumentException(property + " must be at most " + Integer.MAX_VALUE + " bytes, was "
					+ size);
		}
		return (int) bytes;
	}

}
