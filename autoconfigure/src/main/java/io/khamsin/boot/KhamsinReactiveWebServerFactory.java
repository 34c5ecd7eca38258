package io.khamsin.boot;

import java.time.Duration;
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

import io.khamsin.container.FixedResponse;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.KhamsinServerCustomizer;
import io.khamsin.container.ListenerMode;
import io.khamsin.container.Transport;
import io.khamsin.container.accesslog.AccessLogConfig;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

/**
 * {@link ReactiveWebServerFactory} that creates {@link KhamsinWebServer}s. Every khamsin option starts at the
 * engine's default ({@link KhamsinServerConfig}); port, address, server header and shutdown come from the
 * common web server settings.
 */
public class KhamsinReactiveWebServerFactory extends AbstractReactiveWebServerFactory {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinReactiveWebServerFactory.class);

	private int reactors = KhamsinServerConfig.DEFAULT_REACTORS;

	private Transport transport = Transport.AUTO;

	private ListenerMode listener = ListenerMode.REUSEPORT;

	private int maxInitialLineLength = KhamsinServerConfig.DEFAULT_MAX_INITIAL_LINE_LENGTH;

	private int maxHeaderSize = KhamsinServerConfig.DEFAULT_MAX_HEADER_SIZE;

	private Duration idleTimeout = KhamsinServerConfig.DEFAULT_IDLE_TIMEOUT;

	private Duration headerReadTimeout = KhamsinServerConfig.DEFAULT_HEADER_READ_TIMEOUT;

	private Duration bodyReadTimeout = KhamsinServerConfig.DEFAULT_BODY_READ_TIMEOUT;

	private int maxConnections = KhamsinServerConfig.DEFAULT_MAX_CONNECTIONS;

	private long maxRequestBodySize = KhamsinServerConfig.DEFAULT_MAX_REQUEST_BODY_SIZE;

	private List<FixedResponse> fixedResponses = new ArrayList<>();

	private Set<KhamsinServerCustomizer> serverCustomizers = new LinkedHashSet<>();

	private KhamsinMetrics metrics;

	private AccessLogConfig accessLog = AccessLogConfig.disabled();

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
		return KhamsinServerConfig.builder()
			.address(getAddress())
			.port(getPort())
			.reactors(this.reactors)
			.transport(this.transport)
			.listener(this.listener)
			.maxInitialLineLength(this.maxInitialLineLength)
			.maxHeaderSize(this.maxHeaderSize)
			.idleTimeout(this.idleTimeout)
			.headerReadTimeout(this.headerReadTimeout)
			.bodyReadTimeout(this.bodyReadTimeout)
			.maxConnections(this.maxConnections)
			.maxRequestBodySize(this.maxRequestBodySize)
			.serverHeader(getServerHeader())
			.fixedResponses(this.fixedResponses)
			.customizers(List.copyOf(this.serverCustomizers))
			.accessLog(this.accessLog)
			.build();
	}

	private void warnAboutUnsupportedSettings() {
		List<String> ignored = new ArrayList<>();
		if (Ssl.isEnabled(getSsl())) {
			ignored.add("server.ssl");
		}
		if (getHttp2() != null && getHttp2().isEnabled()) {
			ignored.add("server.http2.enabled");
		}
		if (getCompression() != null && getCompression().getEnabled()) {
			ignored.add("server.compression.enabled");
		}
		if (!ignored.isEmpty()) {
			logger.warn("khamsin does not support {} yet: ignored (khamsin serves plain, uncompressed HTTP/1.1). "
					+ "Remove the setting, or set khamsin.enabled=false to use Boot's default reactive server",
					String.join(", ", ignored));
		}
	}

	/**
	 * Set the number of reactors (event loops). Defaults to the number of available processors.
	 * @param reactors the number of reactors
	 */
	public void setReactors(int reactors) {
		this.reactors = reactors;
	}

	/**
	 * Set the I/O transport. Defaults to {@link Transport#AUTO}.
	 * @param transport the transport
	 */
	public void setTransport(Transport transport) {
		Assert.notNull(transport, "'transport' must not be null");
		this.transport = transport;
	}

	/**
	 * Set the listener mode. Defaults to {@link ListenerMode#REUSEPORT}.
	 * @param listener the listener mode
	 */
	public void setListener(ListenerMode listener) {
		Assert.notNull(listener, "'listener' must not be null");
		this.listener = listener;
	}

	/**
	 * Set the longest request line accepted, in bytes; longer ones are answered 414.
	 * @param maxInitialLineLength the maximum length
	 */
	public void setMaxInitialLineLength(int maxInitialLineLength) {
		this.maxInitialLineLength = maxInitialLineLength;
	}

	/**
	 * Set the largest request head accepted, in bytes; larger ones are answered 431.
	 * @param maxHeaderSize the maximum size
	 */
	public void setMaxHeaderSize(int maxHeaderSize) {
		this.maxHeaderSize = maxHeaderSize;
	}

	/**
	 * Set how long a keep-alive connection may stay idle between requests before it is closed.
	 * @param idleTimeout the idle timeout
	 */
	public void setIdleTimeout(Duration idleTimeout) {
		Assert.notNull(idleTimeout, "'idleTimeout' must not be null");
		this.idleTimeout = idleTimeout;
	}

	/**
	 * Set how long a client may take to send a request head; slower ones are answered 408 and closed.
	 * @param headerReadTimeout the header read timeout
	 */
	public void setHeaderReadTimeout(Duration headerReadTimeout) {
		Assert.notNull(headerReadTimeout, "'headerReadTimeout' must not be null");
		this.headerReadTimeout = headerReadTimeout;
	}

	/**
	 * Set how long a request body may stall while the handler waits for it; slower ones are answered 408 and
	 * closed.
	 * @param bodyReadTimeout the body read timeout
	 */
	public void setBodyReadTimeout(Duration bodyReadTimeout) {
		Assert.notNull(bodyReadTimeout, "'bodyReadTimeout' must not be null");
		this.bodyReadTimeout = bodyReadTimeout;
	}

	/**
	 * Set the most connections open at once; new ones beyond it are closed at once.
	 * @param maxConnections the maximum number of connections
	 */
	public void setMaxConnections(int maxConnections) {
		this.maxConnections = maxConnections;
	}

	/**
	 * Set the largest request body accepted, in bytes; larger ones are answered 413.
	 * @param maxRequestBodySize the maximum size, or {@code -1} for no limit
	 */
	public void setMaxRequestBodySize(long maxRequestBodySize) {
		this.maxRequestBodySize = maxRequestBodySize;
	}

	/**
	 * Returns the mutable list of responses khamsin gives itself, without entering the application.
	 * @return the fixed responses
	 */
	public List<FixedResponse> getFixedResponses() {
		return this.fixedResponses;
	}

	/**
	 * Set the responses khamsin gives itself to {@code GET} and {@code HEAD} requests of their paths, without
	 * entering the application, replacing any existing ones.
	 * @param fixedResponses the fixed responses
	 */
	public void setFixedResponses(List<FixedResponse> fixedResponses) {
		Assert.notNull(fixedResponses, "'fixedResponses' must not be null");
		this.fixedResponses = new ArrayList<>(fixedResponses);
	}

	/**
	 * Set the access log. Defaults to none.
	 * @param accessLog the access log
	 */
	public void setAccessLog(AccessLogConfig accessLog) {
		Assert.notNull(accessLog, "'accessLog' must not be null");
		this.accessLog = accessLog;
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
