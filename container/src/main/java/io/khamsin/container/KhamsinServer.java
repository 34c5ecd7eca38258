package io.khamsin.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.accesslog.AccessLog;
import io.khamsin.container.egress.EgressMode;
import io.khamsin.container.egress.EgressModes;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.engine.ShutdownResult;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.http1.Http1Initializer;
import io.khamsin.container.http2.CleartextSelector;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http2.Http2Initializer;
import io.khamsin.container.http3.Http3Initializer;
import io.khamsin.container.http3.Http3Listener;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.tls.QuicTlsContexts;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsContexts;
import io.khamsin.container.tls.TlsHandlers;
import io.khamsin.container.tls.TlsProtocolSelector;
import io.khamsin.container.transport.ConnectionInitializer;
import io.khamsin.container.transport.Listener;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.PortInUseException;
import io.khamsin.container.transport.ProtocolInitializer;
import io.khamsin.container.transport.ProtocolSelector;
import io.khamsin.container.transport.Reactors;
import io.khamsin.container.transport.ResolvedTransport;
import io.khamsin.container.transport.TcpListener;
import io.khamsin.container.transport.Transport;
import io.khamsin.container.transport.TransportResolver;

/**
 * A khamsin server: serves a Spring {@link HttpHandler} over HTTP/1.1, and HTTP/2 when it is on, on Netty, in
 * cleartext or over TLS, with one event loop (reactor) per configured core. Usable without Spring Boot:
 *
 * <pre class="code">
 * KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().port(8080).build(), handler);
 * server.start();
 * </pre>
 *
 * A server can be started again after {@link #stop()}.
 */
public final class KhamsinServer {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinServer.class);

	private static final Duration LISTENER_CLOSE = Duration.ofSeconds(2);

	/** How long {@link #stop()} waits for the connections it closed before it stops their reactors. */
	private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

	private final KhamsinServerConfig config;

	private final HttpHandler handler;

	private final KhamsinMetrics metrics;

	private final GuardCounters guards;

	private final ConnectionRegistry connections;

	private final TlsHandlers tls;

	private final QuicTlsContexts quic;

	private Running running;

	private CompletableFuture<Prepared> prepared;

	private KhamsinServer(KhamsinServerConfig config, HttpHandler handler, KhamsinMetrics metrics, TlsHandlers tls,
			QuicTlsContexts quic) {
		this.config = config;
		this.handler = handler;
		this.metrics = metrics;
		this.guards = metrics.guards();
		this.connections = new ConnectionRegistry(config.maxConnections());
		this.tls = tls;
		this.quic = quic;
	}

	/**
	 * Create a server, not yet started.
	 * @param config the configuration
	 * @param handler the handler that answers every request
	 * @return the server
	 */
	public static KhamsinServer create(KhamsinServerConfig config, HttpHandler handler) {
		return create(config, handler, KhamsinMetrics.create(MetricsConfig.defaults()));
	}

	/**
	 * Create a server, not yet started, that records its figures into the given ones (which several servers
	 * may share).
	 * @param config the configuration
	 * @param handler the handler that answers every request
	 * @param metrics the figures to record into
	 * @return the server
	 * @throws IllegalStateException if its TLS contexts cannot be built (a key that does not serve, a required
	 * provider that does not load, a cipher suite no provider knows)
	 */
	public static KhamsinServer create(KhamsinServerConfig config, HttpHandler handler, KhamsinMetrics metrics) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		if (handler == null) {
			throw new IllegalArgumentException("handler must not be null");
		}
		if (metrics == null) {
			throw new IllegalArgumentException("metrics must not be null");
		}
		// Built now, not at start: a certificate that cannot serve fails where the server is made.
		TlsHandlers tls = (config.tls() != null)
				? new TlsHandlers(TlsContexts.build(offered(config.tls(), config.http2())), metrics.tls(), metrics.guards())
				: null;
		QuicTlsContexts quic = (tls != null && config.http3().enabled()) ? QuicTlsContexts.of(tls.contexts(),
				List.of(Http3Initializer.PROTOCOL), config.http3().earlyData()) : null;
		return new KhamsinServer(config, handler, metrics, tls, quic);
	}

	/**
	 * The TLS configuration with what ALPN offers: {@code h2} ahead of {@code http/1.1} when HTTP/2 is on and the
	 * configuration keeps the default list; a list set on purpose is offered as it is.
	 */
	private static TlsConfig offered(TlsConfig tls, Http2Config http2) {
		if (!http2.enabled() || !tls.alpnProtocols().equals(TlsConfig.DEFAULT_ALPN_PROTOCOLS)) {
			return tls;
		}
		return tls.toBuilder().alpnProtocols(List.of(Http2Initializer.PROTOCOL, Http1Initializer.PROTOCOL)).build();
	}

	/**
	 * Do the slow first-time work of {@link #start()} in the background while the application starts: load the
	 * transport's native library and probe the kernel, create the reactors, open and close a listener on an ephemeral
	 * loopback port so that the transport's classes are loaded, and warm the buffer pool. Spring Boot calls it when it
	 * creates the server, long before it starts it. Optional: {@code start()} does this work itself when it was not
	 * prepared, and {@link #stop()} releases what was prepared but not used.
	 */
	public synchronized void prepare() {
		if (this.prepared != null || this.running != null) {
			return;
		}
		CompletableFuture<Prepared> prepared = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				ResolvedTransport transport = TransportResolver.resolve(this.config.transport(), servesHttp2(),
						servesHttp3());
				PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
				Http1Initializer.preload();
				EventLoopGroup group = newGroup(transport);
				TcpListener.warmUp(transport, group);
				prepared.complete(new Prepared(transport, group));
			}
			catch (Throwable ex) {
				prepared.completeExceptionally(ex);
			}
		}, "khamsin-prepare");
		thread.setDaemon(true);
		thread.start();
		this.prepared = prepared;
	}

	private Prepared takePrepared() {
		CompletableFuture<Prepared> prepared = this.prepared;
		this.prepared = null;
		if (prepared != null) {
			try {
				return prepared.join();
			}
			catch (CompletionException ex) {
				// Resolved again by the caller, so that the failure is thrown from start() with its own message.
			}
		}
		return null;
	}

	/** @return whether the server speaks HTTP/2, which decides the transport {@code auto} takes */
	private boolean servesHttp2() {
		return this.config.http2().enabled();
	}

	/** @return whether the server speaks HTTP/3 (it needs TLS), which decides the transport {@code auto} takes too */
	private boolean servesHttp3() {
		return this.config.http3().enabled() && this.config.tls() != null;
	}

	private EventLoopGroup newGroup(ResolvedTransport transport) {
		return Reactors.create(this.config.reactors(), new DefaultThreadFactory("khamsin-reactor", true),
				transport.ioHandlerFactory());
	}

	/**
	 * Bind the listeners and start serving. Does nothing if already started.
	 * @throws PortInUseException if the port is taken
	 * @throws IllegalStateException if the configured transport is not available or binding fails otherwise
	 */
	public synchronized void start() {
		if (this.running != null) {
			return;
		}
		long startedAt = System.nanoTime();
		Prepared prepared = takePrepared();
		ResolvedTransport transport = (prepared != null) ? prepared.transport()
				: TransportResolver.resolve(this.config.transport(), servesHttp2(), servesHttp3());
		if (transport.fallbackReason() != null) {
			logger.info("khamsin runs on {} ({})", transport.name(), transport.fallbackReason());
		}
		this.connections.reset();
		EventLoopGroup group = (prepared != null) ? prepared.group() : newGroup(transport);
		AccessLog accessLog = null;
		if (this.config.accessLog().enabled()) {
			accessLog = new AccessLog(this.config.accessLog());
			try {
				accessLog.start();
			}
			catch (RuntimeException ex) {
				group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
				throw ex;
			}
		}
		this.metrics.reactorsStarted(group);
		if (this.tls != null) {
			// On a reactor's timer, which ends with the reactors when the server stops.
			this.tls.contexts().startTicketKeyRotation(group.next());
		}
		int port = this.config.port();
		HttpSettings settings = this.config.httpSettings();
		if (this.quic != null) {
			// One port number for TCP and UDP, known before either binds, so that every response can announce it.
			port = (port != 0) ? port : Http3Listener.freePort(this.config.address());
			settings = settings.withAltSvc(this.config.http3().altSvc(port));
		}
		ServerContext context = new ServerContext(settings, this.handler, this.connections, this.guards, this.metrics,
				accessLog);
		ExchangeDispatcher exchanges = new ExchangeDispatcher(context, this.config.fixedResponses(),
				this.config.compression(), this.config.forwarded(), this.config.pageCache(), this.config.overload());
		List<Listener> listeners = new ArrayList<>();
		TcpListener listener;
		try {
			ProtocolSelector protocols = protocols(context, exchanges);
			listener = TcpListener.bind(transport, this.config.listener(), group, this.config.address(), port,
					new ConnectionInitializer(context, protocols), this.config.customizers());
			listeners.add(listener);
			if (this.quic != null) {
				ProtocolSelector http3 = new Http3Initializer(context, exchanges, this.config.http3()).selector();
				listeners.add(Http3Listener.bind(transport, group, this.config.address(), port, this.config.http3(),
						this.quic, new ConnectionInitializer(context, http3), this.metrics));
			}
		}
		catch (RuntimeException ex) {
			listeners.forEach((bound) -> bound.close(LISTENER_CLOSE));
			this.metrics.reactorsStopped(group);
			group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
			if (accessLog != null) {
				accessLog.stop();
			}
			throw ex;
		}
		this.running = new Running(group, List.copyOf(listeners), transport, listener.mode(), accessLog);
		logger.info("khamsin started on {} in {} ms", describe(), (System.nanoTime() - startedAt) / 1_000_000);
	}

	private ProtocolSelector protocols(ServerContext context, ExchangeDispatcher exchanges) {
		// Where the protocols are chosen: a TLS listener speaks what ALPN agrees on; a plain one HTTP/1.1, and h2c
		// besides (by prior knowledge or Upgrade) when HTTP/2 is on.
		ProtocolInitializer http1 = new Http1Initializer(context, exchanges);
		if (!this.config.http2().enabled()) {
			return (this.tls != null) ? new TlsProtocolSelector(this.tls, List.of(http1))
					: ProtocolSelector.cleartext(http1);
		}
		Http2Initializer http2 = new Http2Initializer(context, this.config.http2(), exchanges);
		return (this.tls != null) ? new TlsProtocolSelector(this.tls, List.of(http2, http1))
				: new CleartextSelector(http1, http2, context);
	}

	/**
	 * Start a graceful shutdown: stop accepting, let in-flight requests finish, close idle connections. The
	 * returned future completes with {@link ShutdownResult#IDLE} once every connection has closed, or with
	 * {@link ShutdownResult#REQUESTS_ACTIVE} if {@link #stop()} is called first.
	 * @return the outcome
	 */
	public CompletableFuture<ShutdownResult> shutdownGracefully() {
		Running running;
		synchronized (this) {
			running = this.running;
		}
		if (running == null) {
			return CompletableFuture.completedFuture(ShutdownResult.IDLE);
		}
		for (Listener listener : running.listeners()) {
			listener.stopAccepting(LISTENER_CLOSE);
		}
		logger.info("khamsin is shutting down gracefully: waiting for {} open connection(s)", this.connections.open());
		return this.connections.drain();
	}

	/**
	 * Stop at once: close the listeners and every connection and release the reactors. Does nothing if not
	 * started. Never waits on a handler.
	 */
	public synchronized void stop() {
		Prepared prepared = takePrepared();
		if (prepared != null) {
			prepared.group().shutdownGracefully(0, 0, TimeUnit.SECONDS);
		}
		Running running = this.running;
		if (running == null) {
			return;
		}
		this.running = null;
		for (Listener listener : running.listeners()) {
			listener.close(LISTENER_CLOSE);
		}
		awaitClosed(this.connections.closeAll());
		running.group().shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
		this.metrics.reactorsStopped(running.group());
		if (running.accessLog() != null) {
			running.accessLog().stop();
		}
	}

	private void awaitClosed(CompletableFuture<Void> closed) {
		try {
			closed.get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			logger.warn("khamsin is stopping its reactors with {} connection(s) not yet closed after {} ms",
					this.connections.open(), CLOSE_WAIT.toMillis());
		}
		catch (ExecutionException ex) {
			// Never completed exceptionally.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** @return whether the server is started */
	public synchronized boolean isRunning() {
		return this.running != null;
	}

	/**
	 * The port the server listens on.
	 * @return the port, or {@code -1} when not started
	 */
	public synchronized int port() {
		Running running = this.running;
		if (running == null) {
			return -1;
		}
		return running.listeners().get(0).info().address().getPort();
	}

	/**
	 * What the server runs, as in its start log line: port, protocols, TLS, reactors, transport and listener mode,
	 * e.g. {@code port 8080 (http/1.1) with 2 reactors (io_uring, reuseport)}, or over TLS
	 * {@code port 8443 (https, http/1.1, TLS on BoringSSL: netty-tcnative loaded) with 2 reactors (...)}.
	 * @return the description, or {@code "not started"}
	 */
	public synchronized String describe() {
		Running running = this.running;
		if (running == null) {
			return "not started";
		}
		int reactors = this.config.reactors();
		String tls = (this.tls != null) ? "https, " : "";
		String provider = (this.tls != null) ? ", TLS on " + this.tls.contexts().providerName() + ": "
				+ this.tls.contexts().providerReason() : "";
		return "port " + port() + " (" + tls + String.join(", ", protocols(listeners())) + provider + ") with "
				+ reactors + ((reactors == 1) ? " reactor (" : " reactors (") + running.transport().name() + ", "
				+ running.listener().displayName() + ")";
	}

	/**
	 * The listeners of the running server: where each listens and on how many sockets, the protocols it offers and
	 * its TLS.
	 * @return the listeners, none when not started
	 */
	public synchronized List<ListenerInfo> listeners() {
		return (this.running != null) ? this.running.listeners().stream().map(Listener::info).toList() : List.of();
	}

	/**
	 * The protocols the running server offers on any of its listeners, by their ALPN names.
	 * @return the protocols, none when not started
	 */
	public synchronized List<String> protocols() {
		return protocols(listeners());
	}

	private static List<String> protocols(List<ListenerInfo> listeners) {
		return listeners.stream().flatMap((listener) -> listener.protocols().stream()).distinct().toList();
	}

	/**
	 * The ways response bodies can leave the running server, from what its listeners serve and what the kernel
	 * offers, with the reason when one is not available.
	 * @return the egress modes, none when not started
	 */
	public synchronized List<EgressMode> egressModes() {
		Running running = this.running;
		if (running == null) {
			return List.of();
		}
		List<ListenerInfo> listeners = listeners();
		String regionCalls = (running.transport().transport() == Transport.IO_URING)
				? "pread and send: a body of at most 64 KiB read whole and sent with its head, "
						+ "a larger one 64 KiB at a time"
				: "sendfile";
		EgressModes.KernelTls kernelTls = (this.tls != null && listeners.stream().anyMatch(ListenerInfo::secure))
				? new EgressModes.KernelTls(this.tls.contexts().kernelTlsEngages(),
						this.tls.contexts().kernelTlsDescription())
				: null;
		return EgressModes.of(running.transport().name(), regionCalls,
				listeners.stream().anyMatch((listener) -> !listener.secure()), kernelTls);
	}

	/**
	 * The TLS contexts of the server's listener, built when the server was made: what they serve, and where a
	 * reloaded certificate is handed ({@link TlsContexts#update}).
	 * @return the contexts, or {@code null} when the server speaks cleartext
	 */
	public TlsContexts tls() {
		return (this.tls != null) ? this.tls.contexts() : null;
	}

	/** @return the configuration */
	public KhamsinServerConfig config() {
		return this.config;
	}

	/** @return the transport the server runs on, or {@code null} when not started */
	public synchronized ResolvedTransport transport() {
		return (this.running != null) ? this.running.transport() : null;
	}

	/** @return the listener mode in force, or {@code null} when not started */
	public synchronized ListenerMode listenerMode() {
		return (this.running != null) ? this.running.listener() : null;
	}

	/** @return the open connections and their counts */
	public ConnectionRegistry connections() {
		return this.connections;
	}

	/** @return the counts of each guard */
	public GuardCounters guards() {
		return this.guards;
	}

	/** @return the figures: latencies, connections, requests and bytes per reactor */
	public KhamsinMetrics metrics() {
		return this.metrics;
	}

	private record Prepared(ResolvedTransport transport, EventLoopGroup group) {
	}

	private record Running(EventLoopGroup group, List<Listener> listeners, ResolvedTransport transport,
			ListenerMode listener, AccessLog accessLog) {
	}

}
