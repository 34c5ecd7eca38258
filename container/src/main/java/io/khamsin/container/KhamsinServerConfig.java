package io.khamsin.container;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.khamsin.container.accesslog.AccessLogConfig;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.forwarded.ForwardedConfig;
import io.khamsin.container.guard.OverloadConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.transport.KhamsinServerCustomizer;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

/**
 * The immutable configuration of a {@link KhamsinServer}. Every option has its default written next to it in
 * {@link Builder}; {@link #defaults()} is a server on an ephemeral port with all defaults.
 *
 * @param address the address to bind, or {@code null} for every local address
 * @param port the port to bind, {@code 0} for an ephemeral port
 * @param reactors the number of event loops (reactors)
 * @param transport the I/O transport
 * @param listener the listener mode
 * @param maxInitialLineLength the longest request line accepted (longer: 414)
 * @param maxHeaderSize the largest request head accepted, in bytes (larger: 431)
 * @param idleTimeout how long a keep-alive connection may stay idle between requests before it is closed
 * @param headerReadTimeout how long a client may take to send a request head (slower: 408 and close)
 * @param bodyReadTimeout how long a request body may stall with no bytes while the handler waits for it
 * (slower: 408 and close)
 * @param minRequestBodyRate the slowest a request body may arrive, in bytes per second averaged from its start, once
 * its first five seconds are over (slower: 408 and close), or {@code 0} for no minimum
 * @param sendTimeout how long a connection's socket may take none of its response before the connection is closed
 * @param requestTimeout how long a handler may take to begin its response before it is cancelled and the client
 * answered 503, or {@code null} for no limit (the default: a long poll may wait for its event)
 * @param maxConnections the most connections open at once; new ones beyond it are closed at once
 * @param maxRequestBodySize the largest request body accepted in bytes (larger: 413), or {@code -1} for no limit
 * @param serverHeader the value of the {@code Server} response header, or {@code null} for none
 * @param fixedResponses answers given without entering the handler, each for one path (see {@link FixedResponse})
 * @param customizers customizers of the Netty bootstrap, applied in order
 * @param accessLog the access log
 * @param tls the TLS of the listener, or {@code null} for cleartext
 * @param compression the compression of response bodies
 * @param forwarded whether and from which proxies {@code Forwarded} and {@code X-Forwarded-*} headers are applied
 * @param overload admission control: whether requests for the handler are refused with 503 when the server is past
 * its capacity
 * @param http2 HTTP/2: whether it is served, its settings and its abuse limits
 * @param http3 HTTP/3: whether it is served (over QUIC, on the TLS listener's port number over UDP) and its settings
 * @param pageCache the page cache that answers cacheable requests before the handler, or {@code null} for none;
 * the server uses it and does not close it (its owner does, so that it can outlive a restart and be purged from
 * outside)
 */
public record KhamsinServerConfig(InetAddress address, int port, int reactors, Transport transport,
		ListenerMode listener, int maxInitialLineLength, int maxHeaderSize, Duration idleTimeout,
		Duration headerReadTimeout, Duration bodyReadTimeout, long minRequestBodyRate, Duration sendTimeout,
		Duration requestTimeout, int maxConnections, long maxRequestBodySize, String serverHeader, List<FixedResponse> fixedResponses, List<KhamsinServerCustomizer> customizers,
		AccessLogConfig accessLog, TlsConfig tls, CompressionConfig compression, ForwardedConfig forwarded,
		OverloadConfig overload, Http2Config http2, Http3Config http3, DefaultPageCache pageCache) {

	/** Default number of reactors: one per available processor. */
	public static final int DEFAULT_REACTORS = Runtime.getRuntime().availableProcessors();

	/** Default longest request line, in bytes. */
	public static final int DEFAULT_MAX_INITIAL_LINE_LENGTH = 4096;

	/** Default largest request head, in bytes (Spring Boot's {@code server.max-http-request-header-size}). */
	public static final int DEFAULT_MAX_HEADER_SIZE = 8 * 1024;

	/** Default idle keep-alive timeout. */
	public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

	/** Default time allowed to receive a request head. */
	public static final Duration DEFAULT_HEADER_READ_TIMEOUT = Duration.ofSeconds(10);

	/** Default time a request body may stall. */
	public static final Duration DEFAULT_BODY_READ_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Default slowest request body, in bytes per second (Kestrel's default too): a slow-POST attacker's byte every
	 * few seconds is far below it, a client on the slowest mobile link far above.
	 */
	public static final long DEFAULT_MIN_REQUEST_BODY_RATE = 240;

	/** Default time a connection's socket may take none of its response (nginx's {@code send_timeout} is 60 s). */
	public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(30);

	/** Default maximum of open connections. */
	public static final int DEFAULT_MAX_CONNECTIONS = 10_000;

	/** Default maximum request body size: no limit, as on Spring Boot's other containers. */
	public static final long DEFAULT_MAX_REQUEST_BODY_SIZE = -1;

	public KhamsinServerConfig {
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
		}
		requirePositive("reactors", reactors);
		requirePositive("maxInitialLineLength", maxInitialLineLength);
		requirePositive("maxHeaderSize", maxHeaderSize);
		requirePositive("maxConnections", maxConnections);
		if (maxRequestBodySize < -1) {
			throw new IllegalArgumentException("maxRequestBodySize must be -1 (no limit) or >= 0, was " + maxRequestBodySize);
		}
		if (transport == null) {
			throw new IllegalArgumentException("transport must not be null");
		}
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		requirePositive("idleTimeout", idleTimeout);
		requirePositive("headerReadTimeout", headerReadTimeout);
		requirePositive("bodyReadTimeout", bodyReadTimeout);
		requirePositive("sendTimeout", sendTimeout);
		if (requestTimeout != null) {
			requirePositive("requestTimeout", requestTimeout);
		}
		if (minRequestBodyRate < 0) {
			throw new IllegalArgumentException("minRequestBodyRate must be 0 (no minimum) or more, was " + minRequestBodyRate);
		}
		fixedResponses = List.copyOf(fixedResponses);
		Set<String> paths = new HashSet<>();
		for (FixedResponse fixed : fixedResponses) {
			if (!paths.add(fixed.path())) {
				throw new IllegalArgumentException("Two fixed responses for the same path " + fixed.path());
			}
		}
		customizers = List.copyOf(customizers);
		if (accessLog == null) {
			throw new IllegalArgumentException("accessLog must not be null");
		}
		if (compression == null) {
			throw new IllegalArgumentException("compression must not be null");
		}
		if (forwarded == null) {
			throw new IllegalArgumentException("forwarded must not be null");
		}
		if (overload == null) {
			throw new IllegalArgumentException("overload must not be null");
		}
		if (http2 == null) {
			throw new IllegalArgumentException("http2 must not be null");
		}
		if (http3 == null) {
			throw new IllegalArgumentException("http3 must not be null");
		}
		if (http3.enabled() && tls == null) {
			throw new IllegalArgumentException("HTTP/3 runs over QUIC, which is always TLS: khamsin.http3.enabled=true "
					+ "needs server.ssl (a certificate) on the same server");
		}
	}

	private static void requirePositive(String name, int value) {
		if (value <= 0) {
			throw new IllegalArgumentException(name + " must be positive, was " + value);
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
		}
	}

	/**
	 * The slice every protocol reads: the limits and deadlines of a connection's requests and the {@code Server}
	 * header.
	 * @return the settings
	 */
	public HttpSettings httpSettings() {
		return new HttpSettings(this.maxInitialLineLength, this.maxHeaderSize, this.idleTimeout, this.headerReadTimeout,
				this.bodyReadTimeout, this.minRequestBodyRate, this.sendTimeout, this.requestTimeout,
				this.maxRequestBodySize, this.serverHeader, null);
	}

	/**
	 * A configuration with every default, on an ephemeral port.
	 * @return the default configuration
	 */
	public static KhamsinServerConfig defaults() {
		return builder().build();
	}

	/**
	 * A builder holding every default.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * A builder initialized from this configuration.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.address = this.address;
		builder.port = this.port;
		builder.reactors = this.reactors;
		builder.transport = this.transport;
		builder.listener = this.listener;
		builder.maxInitialLineLength = this.maxInitialLineLength;
		builder.maxHeaderSize = this.maxHeaderSize;
		builder.idleTimeout = this.idleTimeout;
		builder.headerReadTimeout = this.headerReadTimeout;
		builder.bodyReadTimeout = this.bodyReadTimeout;
		builder.minRequestBodyRate = this.minRequestBodyRate;
		builder.sendTimeout = this.sendTimeout;
		builder.requestTimeout = this.requestTimeout;
		builder.maxConnections = this.maxConnections;
		builder.maxRequestBodySize = this.maxRequestBodySize;
		builder.serverHeader = this.serverHeader;
		builder.fixedResponses.addAll(this.fixedResponses);
		builder.customizers.addAll(this.customizers);
		builder.accessLog = this.accessLog;
		builder.tls = this.tls;
		builder.compression = this.compression;
		builder.forwarded = this.forwarded;
		builder.overload = this.overload;
		builder.http2 = this.http2;
		builder.http3 = this.http3;
		builder.pageCache = this.pageCache;
		return builder;
	}

	/**
	 * Builds a {@link KhamsinServerConfig}; each field starts at its default.
	 */
	public static final class Builder {

		private InetAddress address;

		private int port = 0;

		private int reactors = DEFAULT_REACTORS;

		private Transport transport = Transport.AUTO;

		private ListenerMode listener = ListenerMode.REUSEPORT;

		private int maxInitialLineLength = DEFAULT_MAX_INITIAL_LINE_LENGTH;

		private int maxHeaderSize = DEFAULT_MAX_HEADER_SIZE;

		private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

		private Duration headerReadTimeout = DEFAULT_HEADER_READ_TIMEOUT;

		private Duration bodyReadTimeout = DEFAULT_BODY_READ_TIMEOUT;

		private long minRequestBodyRate = DEFAULT_MIN_REQUEST_BODY_RATE;

		private Duration sendTimeout = DEFAULT_SEND_TIMEOUT;

		private Duration requestTimeout;

		private int maxConnections = DEFAULT_MAX_CONNECTIONS;

		private long maxRequestBodySize = DEFAULT_MAX_REQUEST_BODY_SIZE;

		private String serverHeader;

		private final List<FixedResponse> fixedResponses = new ArrayList<>();

		private final List<KhamsinServerCustomizer> customizers = new ArrayList<>();

		private AccessLogConfig accessLog = AccessLogConfig.disabled();

		private TlsConfig tls;

		private CompressionConfig compression = CompressionConfig.disabled();

		private ForwardedConfig forwarded = ForwardedConfig.disabled();

		private OverloadConfig overload = OverloadConfig.disabled();

		private Http2Config http2 = Http2Config.defaults();

		private Http3Config http3 = Http3Config.defaults();

		private DefaultPageCache pageCache;

		private Builder() {
		}

		public Builder address(InetAddress address) {
			this.address = address;
			return this;
		}

		public Builder port(int port) {
			this.port = port;
			return this;
		}

		public Builder reactors(int reactors) {
			this.reactors = reactors;
			return this;
		}

		public Builder transport(Transport transport) {
			this.transport = transport;
			return this;
		}

		public Builder listener(ListenerMode listener) {
			this.listener = listener;
			return this;
		}

		public Builder maxInitialLineLength(int maxInitialLineLength) {
			this.maxInitialLineLength = maxInitialLineLength;
			return this;
		}

		public Builder maxHeaderSize(int maxHeaderSize) {
			this.maxHeaderSize = maxHeaderSize;
			return this;
		}

		public Builder idleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
			return this;
		}

		public Builder headerReadTimeout(Duration headerReadTimeout) {
			this.headerReadTimeout = headerReadTimeout;
			return this;
		}

		public Builder bodyReadTimeout(Duration bodyReadTimeout) {
			this.bodyReadTimeout = bodyReadTimeout;
			return this;
		}

		/**
		 * The slowest a request body may arrive once its first five seconds are over (default
		 * 240 bytes per second).
		 * @param bytesPerSecond the rate, averaged from the body's start; {@code 0} for no minimum
		 * @return this builder
		 */
		public Builder minRequestBodyRate(long bytesPerSecond) {
			this.minRequestBodyRate = bytesPerSecond;
			return this;
		}

		/**
		 * How long a connection's socket may take none of its response before the connection is closed (default
		 * 30 s).
		 * @param sendTimeout the timeout
		 * @return this builder
		 */
		public Builder sendTimeout(Duration sendTimeout) {
			this.sendTimeout = sendTimeout;
			return this;
		}

		/**
		 * How long a handler may take to begin its response before it is cancelled and the client answered 503
		 * (default: no limit).
		 * @param requestTimeout the timeout, or {@code null} for none
		 * @return this builder
		 */
		public Builder requestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
			return this;
		}

		public Builder maxConnections(int maxConnections) {
			this.maxConnections = maxConnections;
			return this;
		}

		public Builder maxRequestBodySize(long maxRequestBodySize) {
			this.maxRequestBodySize = maxRequestBodySize;
			return this;
		}

		public Builder serverHeader(String serverHeader) {
			this.serverHeader = serverHeader;
			return this;
		}

		public Builder fixedResponse(FixedResponse fixedResponse) {
			if (fixedResponse == null) {
				throw new IllegalArgumentException("fixedResponse must not be null");
			}
			this.fixedResponses.add(fixedResponse);
			return this;
		}

		public Builder fixedResponses(List<FixedResponse> fixedResponses) {
			fixedResponses.forEach(this::fixedResponse);
			return this;
		}

		public Builder customizer(KhamsinServerCustomizer customizer) {
			if (customizer == null) {
				throw new IllegalArgumentException("customizer must not be null");
			}
			this.customizers.add(customizer);
			return this;
		}

		public Builder customizers(List<KhamsinServerCustomizer> customizers) {
			customizers.forEach(this::customizer);
			return this;
		}

		public Builder accessLog(AccessLogConfig accessLog) {
			this.accessLog = accessLog;
			return this;
		}

		/**
		 * Serve TLS on the listener (by default it is cleartext).
		 * @param tls the TLS configuration, or {@code null} for cleartext
		 * @return this builder
		 */
		public Builder tls(TlsConfig tls) {
			this.tls = tls;
			return this;
		}

		/**
		 * Compress response bodies (by default they are not).
		 * @param compression the compression configuration
		 * @return this builder
		 */
		public Builder compression(CompressionConfig compression) {
			this.compression = compression;
			return this;
		}

		/**
		 * Apply forwarded headers from trusted proxies (by default they are not applied).
		 * @param forwarded the forwarded headers configuration
		 * @return this builder
		 */
		public Builder forwarded(ForwardedConfig forwarded) {
			this.forwarded = forwarded;
			return this;
		}

		/**
		 * Refuse requests for the handler with 503 and {@code Retry-After} when the server is past its capacity (by
		 * default every request waits for its turn).
		 * @param overload the admission control
		 * @return this builder
		 */
		public Builder overload(OverloadConfig overload) {
			this.overload = overload;
			return this;
		}

		/**
		 * Serve HTTP/2 (by default it is off).
		 * @param http2 whether HTTP/2 is served, its settings and its abuse limits
		 * @return this builder
		 */
		public Builder http2(Http2Config http2) {
			this.http2 = http2;
			return this;
		}

		/**
		 * Serve HTTP/3 (by default it is off); needs {@link #tls}.
		 * @param http3 whether HTTP/3 is served, and its settings
		 * @return this builder
		 */
		public Builder http3(Http3Config http3) {
			this.http3 = http3;
			return this;
		}

		/**
		 * The page cache in front of the handler (default: none). A cache whose configuration is not enabled is
		 * not looked up at all.
		 * @param pageCache the cache, or {@code null}
		 * @return this builder
		 */
		public Builder pageCache(DefaultPageCache pageCache) {
			this.pageCache = pageCache;
			return this;
		}

		public KhamsinServerConfig build() {
			return new KhamsinServerConfig(this.address, this.port, this.reactors, this.transport, this.listener,
					this.maxInitialLineLength, this.maxHeaderSize, this.idleTimeout, this.headerReadTimeout,
					this.bodyReadTimeout, this.minRequestBodyRate, this.sendTimeout, this.requestTimeout, this.maxConnections,
					this.maxRequestBodySize, this.serverHeader,
					this.fixedResponses, this.customizers, this.accessLog, this.tls, this.compression, this.forwarded,
					this.overload, this.http2, this.http3, this.pageCache);
		}

	}

}
