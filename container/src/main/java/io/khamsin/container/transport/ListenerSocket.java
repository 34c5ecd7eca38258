package io.khamsin.container.transport;

import java.net.InetSocketAddress;
import java.util.List;

import io.netty.channel.Channel;

import io.khamsin.container.metrics.KhamsinMetrics;

/**
 * One socket a listener bound: a listening TCP socket, or a UDP socket that carries QUIC connections, with the
 * reactor that reads it.
 *
 * @param localAddress the address and port it is bound to
 * @param type {@code tcp} or {@code udp}
 * @param transport the I/O transport it runs on ({@code io_uring}, {@code epoll}, {@code nio})
 * @param reactor the name of the reactor that reads it, as the figures name it ({@code reactor-0})
 */
public record ListenerSocket(InetSocketAddress localAddress, String type, String transport, String reactor) {

	/** The {@link #type()} of a listening TCP socket. */
	public static final String TCP = "tcp";

	/** The {@link #type()} of a UDP socket. */
	public static final String UDP = "udp";

	/**
	 * Describe the bound sockets of a listener.
	 * @param sockets the sockets
	 * @param type {@link #TCP} or {@link #UDP}
	 * @param transport the transport they run on
	 * @param metrics the figures, which name the reactors
	 * @return one description per socket, in order
	 */
	public static List<ListenerSocket> of(List<Channel> sockets, String type, ResolvedTransport transport,
			KhamsinMetrics metrics) {
		return sockets.stream()
			.map((socket) -> new ListenerSocket((InetSocketAddress) socket.localAddress(), type, transport.name(),
					metrics.reactor(socket.eventLoop()).name()))
			.toList();
	}

}
