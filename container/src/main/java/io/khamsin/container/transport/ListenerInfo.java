package io.khamsin.container.transport;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A listener of a running server, as it was bound: where it listens, its sockets, the protocols it offers (by their
 * ALPN names) and the TLS in front of them.
 *
 * @param address the address and port it listens on
 * @param boundSockets its sockets, each with the reactor that reads it (one per reactor with {@code SO_REUSEPORT},
 * else one): listening TCP sockets, or the UDP sockets of QUIC
 * @param protocols the protocols it offers, by their ALPN names (e.g. {@code http/1.1})
 * @param tls the TLS provider its connections use, or {@link #NO_TLS}
 */
public record ListenerInfo(InetSocketAddress address, List<ListenerSocket> boundSockets, List<String> protocols,
		String tls) {

	/** The {@link #tls()} of a listener that serves plain connections. */
	public static final String NO_TLS = "none";

	public ListenerInfo {
		boundSockets = List.copyOf(boundSockets);
		protocols = List.copyOf(protocols);
	}

	/** @return how many sockets it bound */
	public int sockets() {
		return this.boundSockets.size();
	}

	/** @return whether it listens on UDP (QUIC) rather than TCP */
	public boolean udp() {
		return !this.boundSockets.isEmpty() && ListenerSocket.UDP.equals(this.boundSockets.get(0).type());
	}

	/** @return whether its connections are TLS */
	public boolean secure() {
		return !NO_TLS.equals(this.tls);
	}

}
