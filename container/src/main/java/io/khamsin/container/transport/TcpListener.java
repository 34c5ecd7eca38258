package io.khamsin.container.transport;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.channel.unix.UnixChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP listener on a server's reactors: with {@link ListenerMode#REUSEPORT}, one {@code SO_REUSEPORT} socket per
 * reactor, so that the kernel spreads new connections (io_uring and epoll; NIO falls back to one shared socket, and
 * says so); with {@link ListenerMode#SHARED}, one socket whose connections are handed to the reactors. Each accepted
 * connection starts with the listener's {@link ConnectionInitializer}.
 */
public final class TcpListener implements Listener {

	private static final Logger logger = LoggerFactory.getLogger(TcpListener.class);

	// One allocator for all connections: each would otherwise make its own (32 B that every idle connection keeps);
	// each connection still sizes its reads on its own handle. 16 reads per wake-up is what Netty gives stream
	// channels (NIO, epoll and io_uring alike) when it makes their allocator.
	private static final RecvByteBufAllocator RECEIVE_BUFFERS = new AdaptiveRecvByteBufAllocator()
		.maxMessagesPerRead(16);

	private static final int BACKLOG = 1024;

	// A listener takes every connection waiting in its backlog when it wakes up. Netty 4.2's epoll listener stops after
	// one: it records the accepted descriptor as the bytes read of a 1-byte attempt, so its allocator never sees "maybe
	// more" and the next connection waits for the next turn of the reactor, which lasts as long as the requests of the
	// connections already taken; a TLS handshake needs two more turns. Measured on epoll with the default, 64
	// connections opened at once against the sample app over TLS were accepted over 14.5 s, and h2load waited up to
	// 22 s for their handshakes. Reading until accept says there is none (or the backlog's size) takes the burst at
	// once, as io_uring's multishot accept does.
	private static final RecvByteBufAllocator ACCEPTS = new ServerChannelRecvByteBufAllocator()
		.respectMaybeMoreData(false)
		.maxMessagesPerRead(BACKLOG);

	private final List<Channel> sockets;

	private final ListenerMode mode;

	private final ListenerInfo info;

	private TcpListener(List<Channel> sockets, ListenerMode mode, ResolvedTransport transport,
			ConnectionInitializer connections) {
		this.sockets = List.copyOf(sockets);
		this.mode = mode;
		ProtocolSelector protocols = connections.protocols();
		this.info = new ListenerInfo((InetSocketAddress) sockets.get(0).localAddress(),
				ListenerSocket.of(sockets, ListenerSocket.TCP, transport, connections.metrics()), protocols.protocols(),
				protocols.tls());
	}

	/**
	 * Bind a listener.
	 * @param transport the transport the reactors run
	 * @param requested the listener mode asked for
	 * @param reactors the reactors
	 * @param address the address to bind, or {@code null} for every local address
	 * @param port the port, {@code 0} for an ephemeral one
	 * @param connections the initializer of every accepted connection
	 * @param customizers customizers of the bootstrap, applied in order
	 * @return the bound listener
	 * @throws PortInUseException if the port is taken
	 * @throws IllegalStateException if binding fails otherwise
	 */
	public static TcpListener bind(ResolvedTransport transport, ListenerMode requested, EventLoopGroup reactors,
			InetAddress address, int port, ConnectionInitializer connections, List<KhamsinServerCustomizer> customizers) {
		ListenerMode mode = requested;
		if (mode == ListenerMode.REUSEPORT && !transport.reusePortSupported()) {
			logger.info("khamsin.listener=reuseport needs io_uring or epoll; {} listens on one shared socket",
					transport.name());
			mode = ListenerMode.SHARED;
		}
		List<Channel> sockets = new ArrayList<>();
		try {
			if (mode == ListenerMode.REUSEPORT) {
				if (port != 0) {
					claim(address(address, port));
				}
				for (Iterator<?> it = reactors.iterator(); it.hasNext();) {
					EventLoop loop = (EventLoop) it.next();
					ServerBootstrap bootstrap = bootstrap(transport, loop, connections, customizers)
						.option(UnixChannelOption.SO_REUSEPORT, true);
					Channel socket = bind(bootstrap, address(address, port));
					sockets.add(socket);
					port = ((InetSocketAddress) socket.localAddress()).getPort();
				}
			}
			else {
				sockets.add(bind(bootstrap(transport, reactors, connections, customizers), address(address, port)));
			}
		}
		catch (RuntimeException ex) {
			sockets.forEach(Channel::close);
			throw ex;
		}
		return new TcpListener(sockets, mode, transport, connections);
	}

	/**
	 * Open and close a listener on an ephemeral loopback port, so that the transport's classes are loaded before
	 * the server binds its own; a failure is only logged, as binding will tell it again.
	 * @param transport the transport
	 * @param reactors the reactors
	 */
	public static void warmUp(ResolvedTransport transport, EventLoopGroup reactors) {
		try {
			new ServerBootstrap().group(reactors, reactors)
				.channel(transport.serverChannelClass())
				.childHandler(new ChannelInboundHandlerAdapter())
				.bind(InetAddress.getLoopbackAddress(), 0)
				.syncUninterruptibly()
				.channel()
				.close()
				.syncUninterruptibly();
		}
		catch (RuntimeException ex) {
			logger.debug("khamsin could not warm the {} transport: {}", transport.name(), ex.toString());
		}
	}

	/** @return the listener mode in force */
	public ListenerMode mode() {
		return this.mode;
	}

	@Override
	public ListenerInfo info() {
		return this.info;
	}

	@Override
	public void close(Duration timeout) {
		for (Channel socket : this.sockets) {
			// Wait for the close: on io_uring a close still queued when the reactors shut down never runs, and the
			// port would stay bound.
			socket.close().awaitUninterruptibly(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	private static ServerBootstrap bootstrap(ResolvedTransport transport, EventLoopGroup group,
			ConnectionInitializer connections, List<KhamsinServerCustomizer> customizers) {
		ServerBootstrap bootstrap = new ServerBootstrap().group(group, group)
			.channel(transport.serverChannelClass())
			.option(ChannelOption.SO_BACKLOG, BACKLOG)
			.option(ChannelOption.RCVBUF_ALLOCATOR, ACCEPTS)
			.option(ChannelOption.SO_REUSEADDR, true)
			// Every transport turns Nagle off on an accepted socket itself: asking again costs a setsockopt each.
			.childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
			.childOption(ChannelOption.RCVBUF_ALLOCATOR, RECEIVE_BUFFERS)
			.childHandler(connections);
		for (KhamsinServerCustomizer customizer : customizers) {
			customizer.customize(bootstrap);
		}
		return bootstrap;
	}

	/**
	 * Fail as a port in use would, when another process already listens on the port with SO_REUSEPORT: listeners of
	 * the same user that all ask for SO_REUSEPORT share a port, so binding ours would succeed and the kernel would
	 * hand the other process part of our connections. A socket bound without SO_REUSEPORT cannot share, so it
	 * finds out; it is closed before the listeners bind.
	 */
	private static void claim(InetSocketAddress address) {
		try (ServerSocket probe = new ServerSocket()) {
			probe.setReuseAddress(true);
			probe.bind(address);
		}
		catch (IOException ex) {
			throw bindFailure(address, ex);
		}
	}

	private static InetSocketAddress address(InetAddress address, int port) {
		return (address != null) ? new InetSocketAddress(address, port) : new InetSocketAddress(port);
	}

	private static Channel bind(ServerBootstrap bootstrap, InetSocketAddress address) {
		try {
			return bootstrap.bind(address).syncUninterruptibly().channel();
		}
		catch (Exception ex) {
			throw bindFailure(address, ex);
		}
	}

	/**
	 * A port in use only for EADDRINUSE: the JDK and Netty's native transports report every failure to bind (an
	 * address this machine does not have, a privileged port) as a {@link BindException}, each with its errno's text.
	 */
	private static IllegalStateException bindFailure(InetSocketAddress address, Exception ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (String.valueOf(cause.getMessage()).contains("Address already in use")) {
				return new PortInUseException(address.getPort(), ex);
			}
		}
		return new IllegalStateException("khamsin could not bind " + address + ": " + ex.getMessage(), ex);
	}

}
