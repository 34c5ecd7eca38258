package io.khamsin.boot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.Assert;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.KhamsinServerCustomizer;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

/**
 * {@link ReactiveWebServerFactory} that creates {@link KhamsinWebServer}s. The factory holds what Boot's contract
 * gives every web server factory (port, address, {@code Server} header, shutdown, HTTP/2; SSL and compression are
 * not served yet and warned about); every other khamsin option is set by {@link KhamsinServerConfigCustomizer}s on
 * the engine's configuration builder, where each default is written once, and the Netty bootstrap by
 * {@link KhamsinServerCustomizer}s.
 */
public class KhamsinReactiveWebServerFactory extends AbstractReactiveWebServerFactory {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinReactiveWebServerFactory.class);

	private List<KhamsinServerConfigCustomizer> configCustomizers = new ArrayList<>();

	private Set<KhamsinServerCustomizer> serverCustomizers = new LinkedHashSet<>();

	private KhamsinMetrics metrics;

	public KhamsinReactiveWebServerFactory() {
	}

	public KhamsinReactiveWebServerFactory(int port) {
		super(port);
	}

	@Override
	public WebServer getWebServer(HttpHandler httpHandler) {
		Assert.notNull(httpHandler, "'httpHandler' must not be null");
		warnAboutUnsupportedSettings();
		KhamsinMetrics metrics = (this.metrics != null) ? this.metrics : KhamsinMetrics.create(MetricsConfig.defaults());
		KhamsinServer server = KhamsinServer.create(createServerConfig(), httpHandler, metrics);
		// Boot starts the server once the context is refreshed: load the native transport meanwhile.
		server.prepare();
		return new KhamsinWebServer(server, getShutdown() == Shutdown.GRACEFUL);
	}

	private KhamsinServerConfig createServerConfig() {
		KhamsinServerConfig.Builder config = KhamsinServerConfig.builder()
			.address(getAddress())
			.port(getPort())
			.serverHeader(getServerHeader());
		for (KhamsinServerConfigCustomizer customizer : this.configCustomizers) {
			customizer.customize(config);
		}
		KhamsinServerConfig built = config.customizers(List.copyOf(this.serverCustomizers)).build();
		if (getHttp2() != null && getHttp2().isEnabled() && !built.http2().enabled()) {
			// Boot's server.http2.enabled turns on HTTP/2 with the settings the customizers gave it.
			built = built.toBuilder().http2(built.http2().toBuilder().enabled(true).build()).build();
		}
		return built;
	}

	private void warnAboutUnsupportedSettings() {
		List<String> ignored = new ArrayList<>();
		if (Ssl.isEnabled(getSsl())) {
			ignored.add("server.ssl");
		}
		if (getCompression() != null && getCompression().getEnabled()) {
			ignored.add("server.compression.enabled");
		}
		if (!ignored.isEmpty()) {
			logger.warn("khamsin does not support {} yet: ignored (khamsin serves plain, uncompressed HTTP). "
					+ "Remove the setting, or set khamsin.enabled=false to use Boot's default reactive server",
					String.join(", ", ignored));
		}
	}

	/**
	 * Set the figures the servers record into, so that meters and endpoints can read them. Defaults to figures
	 * of their own per server, with every default.
	 * @param metrics the figures
	 */
	public void setMetrics(KhamsinMetrics metrics) {
		this.metrics = metrics;
	}

	/**
	 * Returns the mutable list of the {@link KhamsinServerConfigCustomizer}s applied, in order, to the engine's
	 * configuration.
	 * @return the customizers that will be applied
	 */
	public List<KhamsinServerConfigCustomizer> getConfigCustomizers() {
		return this.configCustomizers;
	}

	/**
	 * Set the {@link KhamsinServerConfigCustomizer}s applied to the engine's configuration, replacing any existing
	 * ones.
	 * @param configCustomizers the customizers to set
	 */
	public void setConfigCustomizers(Collection<? extends KhamsinServerConfigCustomizer> configCustomizers) {
		Assert.notNull(configCustomizers, "'configCustomizers' must not be null");
		this.configCustomizers = new ArrayList<>(configCustomizers);
	}

	/**
	 * Add {@link KhamsinServerConfigCustomizer}s applied to the engine's configuration, after those already added.
	 * @param configCustomizers the customizers to add
	 */
	public void addConfigCustomizers(KhamsinServerConfigCustomizer... configCustomizers) {
		Assert.notNull(configCustomizers, "'configCustomizers' must not be null");
		this.configCustomizers.addAll(Arrays.asList(configCustomizers));
	}

	/**
	 * Returns a mutable collection of the {@link KhamsinServerCustomizer}s applied to the Netty bootstrap.
	 * @return the customizers that will be applied
	 */
	public Collection<KhamsinServerCustomizer> getServerCustomizers() {
		return this.serverCustomizers;
	}

	/**
	 * Set the {@link KhamsinServerCustomizer}s applied to the Netty bootstrap, replacing any existing ones.
	 * @param serverCustomizers the customizers to set
	 */
	public void setServerCustomizers(Collection<? extends KhamsinServerCustomizer> serverCustomizers) {
		Assert.notNull(serverCustomizers, "'serverCustomizers' must not be null");
		this.serverCustomizers = new LinkedHashSet<>(serverCustomizers);
	}

	/**
	 * Add {@link KhamsinServerCustomizer}s applied to the Netty bootstrap, after those already added.
	 * @param serverCustomizers the customizers to add
	 */
	public void addServerCustomizers(KhamsinServerCustomizer... serverCustomizers) {
		Assert.notNull(serverCustomizers, "'serverCustomizers' must not be null");
		this.serverCustomizers.addAll(Arrays.asList(serverCustomizers));
	}

}
