package io.khamsin.container.transport;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A listener of a running server, as it was bound: where it listens, on how many sockets, the protocols it offers
 * (by their ALPN names) and the TLS in front of them.
 *
 * @param address the address and port it listens on
 * @param sockets the listening sockets bound for it (one per reactor with {@code SO_REUSEPORT}, else one)
 * @param protocols the protocols it offers, by their ALPN names (e.g. {@code http/1.1})
 * @param tls the TLS provider its connections use, or {@link #NO_TLS}
 */
public record ListenerInfo(InetSocketAddress address, int sockets, List<String> protocols, String tls) {

	/** The {@link #tls()} of a listener that serves plain connections. */
	public static final String NO_TLS = "none";

	public ListenerInfo {
		protocols = List.copyOf(protocols);
	}

	/** @return whether its connections are TLS */
	public boolean secure() {
		return !NO_TLS.equals(this.tls);
	}

}
