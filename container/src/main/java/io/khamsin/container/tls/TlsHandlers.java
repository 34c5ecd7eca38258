package io.khamsin.container.tls;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;

import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.TlsFigures;

/**
 * What a connection initializer puts in front of its HTTP pipeline on a TLS port:
 *
 * <pre class="code">
 * channel.pipeline().addLast(TlsHandlers.DETECTOR, tls.newHandler(channel));
 * // then the HTTP/1.1 handlers, as on a cleartext port
 * </pre>
 *
 * The handler reads the connection's first byte. A TLS record turns it into the SNI stage, which picks the context
 * of the host name the client asks for ({@link TlsContexts#select}) and becomes Netty's {@code SslHandler}
 * ({@link #TLS}); a recorder behind it counts the handshake, full or resumed, or its failure. Anything else is
 * refused at once: plain HTTP gets a 400 that says to use https, other bytes a closed connection. One deadline,
 * the handshake timeout, runs from the connection's start to the end of its handshake; a connection closed at it is
 * counted as the guard event {@code tls-handshake-timeout} as well as a failed handshake. The
 * {@code SslHandshakeCompletionEvent} travels on down the pipeline, so an ALPN stage can follow.
 */
public final class TlsHandlers {

	/** The name of the first handler, until the first byte arrives. */
	public static final String DETECTOR = "tls-detector";

	/** The name of the SNI stage, until the ClientHello is read. */
	public static final String SNI = "tls-sni";

	/** The name of Netty's {@code SslHandler} once the SNI stage has chosen its context. */
	public static final String TLS = "tls";

	/** The name of the handshake recorder, until the handshake completes. */
	public static final String HANDSHAKE = "tls-handshake";

	/** The name of the TLS 1.2 renegotiation guard on the JDK provider (BoringSSL refuses renegotiation itself). */
	public static final String RENEGOTIATION = "tls-renegotiation";

	private final TlsContexts contexts;

	private final TlsFigures figures;

	private final GuardCounters guards;

	private final HandshakeFailureLog failureLog;

	/**
	 * Create the handlers' factory of a TLS listener whose guard events are counted apart from any server's.
	 * @param contexts the contexts to serve
	 * @param figures where handshakes are counted
	 */
	public TlsHandlers(TlsContexts contexts, TlsFigures figures) {
		this(contexts, figures, new GuardCounters());
	}

	/**
	 * Create the handlers' factory of a TLS listener.
	 * @param contexts the contexts to serve
	 * @param figures where handshakes are counted
	 * @param guards where handshakes closed at the handshake timeout are counted
	 */
	public TlsHandlers(TlsContexts contexts, TlsFigures figures, GuardCounters guards) {
		if (contexts == null) {
			throw new IllegalArgumentException("contexts must not be null");
		}
		if (figures == null) {
			throw new IllegalArgumentException("figures must not be null");
		}
		if (guards == null) {
			throw new IllegalArgumentException("guards must not be null");
		}
		this.contexts = contexts;
		this.figures = figures;
		this.guards = guards;
		this.failureLog = new HandshakeFailureLog(contexts::identityName);
	}

	/**
	 * The handler to add first in a new connection's pipeline, before its HTTP handlers. Call it on the
	 * connection's event loop (a {@code ChannelInitializer} does).
	 * @param channel the new connection
	 * @return the handler, for this connection only
	 */
	public ChannelHandler newHandler(Channel channel) {
		return new TlsDetector(this.contexts, this.figures.reactor(channel.eventLoop()), this.guards, this.failureLog,
				this.contexts.config().handshakeTimeout().toMillis());
	}

	/** @return the contexts served */
	public TlsContexts contexts() {
		return this.contexts;
	}

	/** @return the handshake figures */
	public TlsFigures figures() {
		return this.figures;
	}

	/** @return where handshakes closed at the handshake timeout are counted */
	public GuardCounters guards() {
		return this.guards;
	}

}
