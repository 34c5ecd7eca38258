package io.khamsin.boot.autoconfigure.management;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.autoconfigure.KhamsinProperties;
import io.khamsin.boot.autoconfigure.KhamsinReactiveWebServerFactoryCustomizer;

/**
 * Gives the management server the main server's engine settings (transport, listener mode, limits and timeouts)
 * on a single reactor, without what belongs to the application: its fixed responses, access log and
 * {@code KhamsinServerCustomizer}s. Port and address are actuator's {@code management.server.*}.
 */
final class KhamsinManagementServerFactoryCustomizer
		implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	// Health probes and scrapes need one event loop, not one per core as the application does.
	static final int REACTORS = 1;

	private final KhamsinReactiveWebServerFactoryCustomizer serverSettings;

	KhamsinManagementServerFactoryCustomizer(ServerProperties serverProperties, KhamsinProperties khamsinProperties) {
		this.serverSettings = new KhamsinReactiveWebServerFactoryCustomizer(serverProperties, khamsinProperties);
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		this.serverSettings.customizeEngine(factory);
		factory.addConfigCustomizers((config) -> config.reactors(REACTORS));
	}

}
