package io.khamsin.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.Assert;

import io.khamsin.boot.compression.CompressionConfigMapper;
import io.khamsin.boot.tls.BootTlsConfig;
import io.khamsin.boot.tls.KhamsinTlsProperties;
import io.khamsin.boot.tls.SslBundleReloader;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.egress.KernelTlsMode;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.transport.KhamsinServerCustomizer;

/**
 * {@link ReactiveWebServerFactory} that creates {@link KhamsinWebServer}s. The factory holds what Boot's contract
 * gives every web server factory (port, address, {@code Server} header, shutdown, SSL and its bundles, compression,
 * HTTP/2) and hands it to the engine's configuration builder first; every other khamsin option
 * is set by {@link KhamsinServerConfigCustomizer}s on that builder, where each default is written once, and the
 * Netty bootstrap by {@link KhamsinServerCustomizer}s.
 * <p>
 * SSL is read as Boot's own containers read it, from the factory's SSL bundle ({@code server.ssl.*},
 * {@code server.ssl.bundle}, {@code server.ssl.server-name-bundles}), so that a misconfiguration fails
 * {@link #getWebServer} with Boot's message; a bundle that reloads on update is handed to the running server.
 */
public class KhamsinReactiveWebServerFactory extends AbstractReactiveWebServerFactory {

	private List<KhamsinServerConfigCustomizer> configCustomizers = new ArrayList<>();

	private Set<KhamsinServerCustomizer> serverCustomizers = new LinkedHashSet<>();

	private KhamsinMetrics metrics;

	private KhamsinTlsProperties tlsProperties = KhamsinTlsProperties.defaults();

	private KernelTlsMode kernelTls = KernelTlsMode.AUTO;

	private Duration shutdownDelay = Duration.ZERO;

	public KhamsinReactiveWebServerFactory() {
	}

	public KhamsinReactiveWebServerFactory(int port) {
		super(port);
	}

	@Override
	public WebServer getWebServer(HttpHandler httpHandler) {
		Assert.notNull(httpHandler, "'httpHandler' must not be null");
		KhamsinMetrics metrics = (this.metrics != null) ? this.metrics : KhamsinMetrics.create(MetricsConfig.defaults());
		KhamsinServer server = KhamsinServer.create(createServerConfig(), httpHandler, metrics);
		if (server.tls() != null) {
			SslBundleReloader.register(getSsl(), getSslBundles(), server.tls());
		}
		// Boot starts the server once the context is refreshed: load the native transport meanwhile.
		server.prepare();
		return new KhamsinWebServer(server, getShutdown() == Shutdown.GRACEFUL, this.shutdownDelay);
	}

	private KhamsinServerConfig createServerConfig() {
		KhamsinServerConfig.Builder config = KhamsinServerConfig.builder()
			.address(getAddress())
			.port(getPort())
			.serverHeader(getServerHeader())
			.tls(kernelTls(BootTlsConfig.of(getSsl(), this::getSslBundle, this::getServerNameSslBundles,
					this.tlsProperties)))
			.compression(CompressionConfigMapper.map(getCompression()));
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


	/**
	 * Set khamsin's own TLS settings ({@code khamsin.tls.*}: provider, session resumption, handshake timeout, a
	 * development certificate), applied with the factory's SSL. Defaults to every default.
	 * @param tlsProperties the settings
	 */
	public void setTlsProperties(KhamsinTlsProperties tlsProperties) {
		Assert.notNull(tlsProperties, "'tlsProperties' must not be null");
		this.tlsProperties = tlsProperties;
	}

	/**
	 * Set whether TLS 1.3 connections may hand their sending to the kernel ({@code khamsin.egress.ktls}), so that
	 * file bodies over TLS leave by {@code sendfile}. Defaults to {@code auto}.
	 * @param kernelTls the mode
	 */
	public void setKernelTls(KernelTlsMode kernelTls) {
		Assert.notNull(kernelTls, "'kernelTls' must not be null");
		this.kernelTls = kernelTls;
	}

	private TlsConfig kernelTls(TlsConfig tls) {
		return (tls != null && tls.kernelTls() != this.kernelTls) ? tls.toBuilder().kernelTls(this.kernelTls).build()
				: tls;
	}

	/**
	 * Set how long a server keeps serving once its shutdown has begun, before it stops accepting connections
	 * ({@code khamsin.shutdown.delay}): the time a load balancer needs to see readiness go down. Defaults to zero.
	 * @param shutdownDelay the delay, zero for none
	 */
	public void setShutdownDelay(Duration shutdownDelay) {
		Assert.notNull(shutdownDelay, "'shutdownDelay' must not be null");
		Assert.isTrue(!shutdownDelay.isNegative(), "'shutdownDelay' must not be negative");
		this.shutdownDelay = shutdownDelay;
	}

	/**
	 * How long a server keeps serving once its shutdown has begun, before it stops accepting connections.
	 * @return the delay, zero for none
	 */
	public Duration getShutdownDelay() {
		return this.shutdownDelay;
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
