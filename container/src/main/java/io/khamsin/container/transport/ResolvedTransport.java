package io.khamsin.container.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;

/**
 * The transport a server really runs on, with the reason a better one was not taken.
 *
 * @param transport the transport (never {@link Transport#AUTO})
 * @param ioHandlerFactory the factory of the reactors' I/O handlers
 * @param serverChannelClass the listening channel class
 * @param reusePortSupported whether {@code SO_REUSEPORT} listeners can be bound
 * @param fallbackReason why a better transport was not used, or {@code null} when none was skipped
 */
public record ResolvedTransport(Transport transport, IoHandlerFactory ioHandlerFactory,
		Class<? extends ServerChannel> serverChannelClass, boolean reusePortSupported, String fallbackReason) {

	/**
	 * The name used in log lines ({@code io_uring}, {@code epoll}, {@code nio}).
	 * @return the name
	 */
	public String name() {
		return this.transport.displayName();
	}

}
