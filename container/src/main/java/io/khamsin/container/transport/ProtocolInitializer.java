package io.khamsin.container.transport;

import io.netty.channel.Channel;

/**
 * The pipeline of one protocol, set up on a connection once its protocol is chosen: HTTP/1.1 ({@code http1}) today,
 * an HTTP/2 initializer in a package of its own next to it. Called on the connection's event loop, after the
 * transport's handlers (the byte counter, and TLS on a secure listener).
 */
public interface ProtocolInitializer {

	/**
	 * The protocol this initializer sets up, by its ALPN name (RFC 7301): {@code http/1.1}, {@code h2}.
	 * @return the name
	 */
	String protocol();

	/**
	 * Add the protocol's handlers to a connection's pipeline.
	 * @param channel the connection
	 * @param security what the transport established under the protocol
	 */
	void initialize(Channel channel, ConnectionSecurity security);

}
