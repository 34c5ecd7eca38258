package io.khamsin.boot;

import io.khamsin.container.KhamsinServerConfig;

/**
 * Callback that customizes the engine configuration a {@link KhamsinReactiveWebServerFactory} builds, after the
 * factory has set what Boot's contract gives it (port, address, {@code Server} header). The options and their
 * defaults are those of {@link KhamsinServerConfig.Builder}.
 */
@FunctionalInterface
public interface KhamsinServerConfigCustomizer {

	/**
	 * Customize the configuration.
	 * @param config the builder of the configuration
	 */
	void customize(KhamsinServerConfig.Builder config);

}
