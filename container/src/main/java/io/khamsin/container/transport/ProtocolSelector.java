package io.khamsin.container.transport;

import java.util.List;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;

/**
 * How a new connection of a listener comes to speak a protocol: the place where the transport's extensions join,
 * called by {@link ConnectionInitializer} once the connection is admitted. A plain listener's selector
 * ({@link #cleartext}) hands the connection to its only protocol at once. A TLS listener's selector adds its
 * TLS handler and a negotiation stage that calls the {@link ProtocolInitializer}
 * of the protocol ALPN agreed on; a plain listener that offers h2c reads the first bytes for the HTTP/2 preface
 * (RFC 9113, section 3.4) before it chooses. Each ends in a {@code ProtocolInitializer}, so that a protocol is added
 * by a package of its own, not by editing another's.
 */
public interface ProtocolSelector {

	/**
	 * The protocols a connection may come to speak, by their ALPN names, in order of preference.
	 * @return the protocols
	 */
	List<String> protocols();

	/**
	 * The TLS provider of the listener's connections.
	 * @return the provider, or {@link ListenerInfo#NO_TLS}
	 */
	String tls();

	/**
	 * Set a new connection on its way to a protocol: now, or once TLS, ALPN or a preface have chosen it.
	 * @param channel the connection, on its event loop
	 */
	void select(Channel channel);

	/**
	 * Refuse a new connection (the server is at {@code khamsin.max-connections}, or draining for a graceful shutdown)
	 * in the way that tells its client nothing sent on it was processed, so that the client can send it elsewhere: a
	 * TCP connection is reset, at once.
	 * @param channel the connection, on its event loop
	 */
	default void refuse(Channel channel) {
		channel.config().setOption(ChannelOption.SO_LINGER, 0);
		channel.close();
	}

	/**
	 * The selector of a plain listener that speaks one protocol.
	 * @param protocol the protocol
	 * @return the selector
	 */
	static ProtocolSelector cleartext(ProtocolInitializer protocol) {
		return new ProtocolSelector() {

			@Override
			public List<String> protocols() {
				return List.of(protocol.protocol());
			}

			@Override
			public String tls() {
				return ListenerInfo.NO_TLS;
			}

			@Override
			public void select(Channel channel) {
				protocol.initialize(channel, ConnectionSecurity.PLAIN);
			}

		};
	}

}
