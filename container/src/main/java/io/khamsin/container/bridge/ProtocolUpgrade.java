package io.khamsin.container.bridge;

import java.util.Map;

import io.netty.channel.ChannelHandler;

/**
 * Taking a connection out of HTTP once its {@code 101 Switching Protocols} has been written (RFC 9110, section
 * 7.8): the protocol that carried the exchange takes its codec out and hands the connection's bytes, those it still
 * holds included, to the new protocol's handlers in its place. Offered by a protocol that can switch (HTTP/1.1,
 * through {@link ProtocolChannel#upgrade()}); HTTP/2 and HTTP/3 cannot (RFC 9113, section 8.6), and carry a
 * WebSocket on a stream instead (RFC 8441, RFC 9220).
 */
public interface ProtocolUpgrade {

	/**
	 * Switch the connection to another protocol. Called on the connection's event loop, after the 101 was handed
	 * to the connection.
	 * @param handlers the new protocol's handlers by name, in the order the bytes pass them
	 */
	void switchTo(Map<String, ? extends ChannelHandler> handlers);

}
