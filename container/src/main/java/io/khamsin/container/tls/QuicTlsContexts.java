package io.khamsin.container.tls;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLEngine;

import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.metrics.TlsFigures;

/**
 * The TLS contexts of a QUIC listener, built from the same identities as its TCP listener's {@link TlsContexts}: one
 * {@link QuicSslContext} per identity (QUIC's TLS 1.3 runs in quiche's BoringSSL, whatever runs the TCP handshakes),
 * chosen per handshake by the client's SNI as the TCP listener chooses (a host name's own identity, a wildcard's,
 * else the default), and rebuilt when {@link TlsContexts#update} swaps an identity's material, so that a reloaded
 * certificate serves both listeners. Each identity's QUIC context encrypts its session tickets with the keys of the
 * identity's TCP context ({@link TicketKeys}), replaced with them on every rotation, so that a ticket from one host
 * name does not resume under another and no QUIC ticket outlives {@code ticket-key-rotation}. Early data (0-RTT) is
 * off unless asked for: a request in it can be replayed.
 */
public final class QuicTlsContexts {

	private static final Logger logger = LoggerFactory.getLogger(QuicTlsContexts.class);

	private static final MethodHandle SESSION_REUSED = sessionReused();

	private final TlsContexts tcp;

	private final String[] protocols;

	private final boolean earlyData;

	private final AtomicReference<Map<String, QuicSslContext>> contexts = new AtomicReference<>();

	private final QuicSslContext sniContext;

	private QuicTlsContexts(TlsContexts tcp, List<String> protocols, boolean earlyData) {
		this.tcp = tcp;
		this.protocols = protocols.toArray(new String[0]);
		this.earlyData = earlyData;
		Map<String, QuicSslContext> built = new HashMap<>();
		tcp.materials().forEach((name, material) -> built.put(name, shareTicketKeys(name, build(material))));
		this.contexts.set(built);
		this.sniContext = QuicSslContextBuilder.buildForServerWithSni(this::select);
		shareTicketKeys(null, this.sniContext);
		tcp.addUpdateListener(this::update);
	}

	/**
	 * Build the QUIC contexts of every identity a TCP listener serves, and follow its updates.
	 * @param tcp the TCP listener's contexts
	 * @param protocols the application protocols ALPN offers over QUIC (e.g. {@code h3})
	 * @param earlyData whether to accept early data (0-RTT)
	 * @return the contexts
	 * @throws IllegalStateException if an identity's material cannot serve QUIC
	 */
	public static QuicTlsContexts of(TlsContexts tcp, List<String> protocols, boolean earlyData) {
		if (tcp == null) {
			throw new IllegalArgumentException("tcp must not be null");
		}
		return new QuicTlsContexts(tcp, protocols, earlyData);
	}

	/** @return the context to hand QUIC's codec: it picks an identity's context by SNI per handshake */
	public QuicSslContext context() {
		return this.sniContext;
	}

	/**
	 * The context of the identity that serves a host name.
	 * @param hostName the SNI host name, or {@code null}
	 * @return the context
	 */
	QuicSslContext select(String hostName) {
		Map<String, QuicSslContext> current = this.contexts.get();
		QuicSslContext context = current.get(this.tcp.identityName(hostName));
		return (context != null) ? context : current.get(null);
	}

	/**
	 * Count a QUIC connection's handshake in the TLS figures, as a TCP connection's is counted: full or resumed, or
	 * failed with its reason.
	 * @param figures the figures of the connection's reactor
	 * @param completion the handshake's outcome, as the QUIC connection reports it
	 * @param engine the connection's TLS engine
	 * @param connectedAtMillis when the connection was made
	 */
	public static void recordHandshake(TlsFigures.Reactor figures, SslHandshakeCompletionEvent completion,
			SSLEngine engine, long connectedAtMillis) {
		if (!completion.isSuccess()) {
			figures.failed(HandshakeFailures.of(completion.cause()));
		}
		else if (engine != null && resumed(engine, connectedAtMillis)) {
			figures.resumed();
		}
		else {
			figures.full();
		}
	}

	/**
	 * Whether a QUIC handshake resumed a session. BoringSSL tells Netty's QUIC engine, which keeps it in a method of
	 * its own package ({@code QuicheQuicSslEngine.isSessionReused()}), read here once the handshake is done. Where that
	 * cannot be read (another Netty, a module that is not open), a session made in an earlier second than the
	 * connection counts as resumed: quiche gives creation times in whole seconds and BoringSSL renews a resumed
	 * session's, so that undercounts.
	 */
	static boolean resumed(SSLEngine engine, long connectedAtMillis) {
		if (SESSION_REUSED != null && SESSION_REUSED.type().parameterType(0).isInstance(engine)) {
			try {
				return (boolean) SESSION_REUSED.invoke(engine);
			}
			catch (Throwable ex) {
				// Fall back to the session's age.
			}
		}
		return engine.getSession().getCreationTime() < connectedAtMillis / 1000 * 1000;
	}

	private static MethodHandle sessionReused() {
		try {
			Class<?> type = Class.forName("io.netty.handler.codec.quic.QuicheQuicSslEngine", false,
					QuicSslContext.class.getClassLoader());
			Method method = type.getDeclaredMethod("isSessionReused");
			method.setAccessible(true);
			return MethodHandles.lookup().unreflect(method);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("khamsin counts resumed QUIC handshakes by their sessions' age: {}", ex.toString());
			return null;
		}
	}

	private void update(String name, TlsMaterial material) {
		QuicSslContext context;
		try {
			context = build(material);
		}
		catch (RuntimeException ex) {
			logger.warn("khamsin keeps serving the previous certificate of {} over QUIC: {}",
					(name != null) ? "server name " + name : "the default host", ex.getMessage());
			// The identity's TCP context has new keys, which rotate; the QUIC context it keeps follows them.
			QuicSslContext previous = this.contexts.get().get(name);
			if (previous != null) {
				shareTicketKeys(name, previous);
			}
			return;
		}
		shareTicketKeys(name, context);
		this.contexts.updateAndGet((current) -> {
			Map<String, QuicSslContext> next = new HashMap<>(current);
			next.put(name, context);
			return next;
		});
		if (name == null) {
			shareTicketKeys(null, this.sniContext);
		}
	}

	/**
	 * Encrypt a QUIC context's session tickets with the keys of an identity's TCP context, rotated with them.
	 * BoringSSL asks for ticket keys through the callback of the context a handshake started on (the SNI context),
	 * which Netty answers with the keys of the context SNI moved the handshake to (the identity's): both need keys,
	 * the first only to turn the callback on, and it gets the default identity's.
	 */
	private QuicSslContext shareTicketKeys(String name, QuicSslContext context) {
		TicketKeys keys = this.tcp.ticketKeys(name);
		if (keys != null) {
			keys.share(context.sessionContext());
		}
		return context;
	}

	private QuicSslContext build(TlsMaterial material) {
		TlsConfig config = this.tcp.config();
		QuicSslContextBuilder builder = QuicSslContextBuilder.forServer(material.keyManagers(), null)
			.applicationProtocols(this.protocols)
			.earlyData(this.earlyData)
			.sessionCacheSize(config.sessionCacheSize())
			.sessionTimeout(config.sessionTimeout().toSeconds())
			.clientAuth(switch (config.clientAuth()) {
				case NONE -> ClientAuth.NONE;
				case WANT -> ClientAuth.OPTIONAL;
				case NEED -> ClientAuth.REQUIRE;
			});
		if (material.trustManagers() != null) {
			builder.trustManager(material.trustManagers());
		}
		try {
			return builder.build();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("khamsin could not serve " + material.description() + " over QUIC: "
					+ ex.getMessage(), ex);
		}
	}

}
