package io.khamsin.container.transport;

import io.netty.bootstrap.ServerBootstrap;

/**
 * Callback that customizes the Netty {@link ServerBootstrap} of a server before it binds: socket options,
 * child options, attributes. Called once per bind, after khamsin has applied its own settings.
 */
@FunctionalInterface
public interface KhamsinServerCustomizer {

	/**
	 * Customize the bootstrap.
	 * @param bootstrap the bootstrap, with khamsin's group, channel and handlers already set
	 */
	void customize(ServerBootstrap bootstrap);

}
