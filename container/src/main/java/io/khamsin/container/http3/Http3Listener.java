package io.khamsin.container.http3;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.EpollQuicUtils;
import io.netty.handler.codec.quic.QuicChannelOption;
import io.netty.handler.codec.quic.QuicCodecDispatcher;
import io.netty.handler.codec.quic.QuicCongestionControlAlgorithm;
import io.netty.handler.codec.quic.QuicConnectionIdGenerator;
import io.netty.handler.codec.quic.QuicServerCodecBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.QuicCounters;
import io.khamsin.container.tls.QuicTlsContexts;
import io.khamsin.container.transport.ConnectionInitializer;
import io.khamsin.container.transport.Listener;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ListenerSocket;
import io.khamsin.container.transport.PortInUseException;
import io.khamsin.container.transport.ResolvedTransport;
import io.khamsin.container.transport.Transport;

/**
 * The QUIC listener of HTTP/3: on io_uring and epoll one UDP socket per reactor with {@code SO_REUSEPORT}, all on one
 * port; on NIO one socket. The kernel spreads datagrams over the sockets by their addresses, which a client that
 * changes its port (NAT rebinding, migration) would send to another socket than its connection's: Netty's
 * {@link QuicCodecDispatcher} writes each socket's index into the connection IDs it issues and hands every packet to
 * the socket, and so the reactor, that owns its connection. Each QUIC connection then starts with the server's
 * {@link ConnectionInitializer}, as a TCP connection does: admitted or refused, counted, and set up for HTTP/3.
 * On epoll, where the kernel offers UDP GSO, a burst of packets to one client leaves in one {@code sendmsg}, and
 * the datagrams waiting on a socket are taken by one {@code recvmmsg} each time it is read, instead of a
 * {@code recvmsg} apiece.
 */
public final class Http3Listener implements Listener {

	private static final Logger logger = LoggerFactory.getLogger(Http3Listener.class);

	/** The most packets one GSO send carries. */
	private static final int GSO_SEGMENTS = 10;

	/** The most datagrams one {@code recvmmsg} takes on epoll. */
	static final int DATAGRAMS_PER_READ = 16;

	/**
	 * The least room each datagram of a {@code recvmmsg} gets: what Netty's datagram channels read one datagram into.
	 * A client's first datagrams come before it knows the server's {@code max_udp_payload_size}, and may be larger.
	 */
	static final int MIN_RECEIVE_SLOT = 2048;

	private final List<Channel> sockets;

	private final ListenerInfo info;

	private final boolean gso;

	private Http3Listener(List<Channel> sockets, boolean gso, ResolvedTransport transport, KhamsinMetrics metrics) {
		this.sockets = List.copyOf(sockets);
		this.gso = gso;
		this.info = new ListenerInfo((InetSocketAddress) sockets.get(0).localAddress(),
				ListenerSocket.of(sockets, ListenerSocket.UDP, transport, metrics), List.of(Http3Initializer.PROTOCOL),
				Http3Initializer.TLS);
	}

	/**
	 * Bind the QUIC listener.
	 * @param transport the transport the reactors run
	 * @param reactors the reactors
	 * @param address the address to bind, or {@code null} for every local address
	 * @param port the UDP port: the port number of the server's TLS listener
	 * @param config the HTTP/3 settings
	 * @param tls the QUIC TLS contexts
	 * @param connections the initializer of every QUIC connection
	 * @param metrics the figures, whose byte counters count the sockets' datagrams
	 * @return the bound listener
	 * @throws PortInUseException if the UDP port is taken
	 * @throws IllegalStateException if binding fails otherwise
	 */
	public static Http3Listener bind(ResolvedTransport transport, EventLoopGroup reactors, InetAddress address,
			int port, Http3Config config, QuicTlsContexts tls, ConnectionInitializer connections,
			KhamsinMetrics metrics) {
		boolean reusePort = transport.reusePortSupported();
		boolean gso = transport.transport() == Transport.EPOLL && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
		byte[] tokenKey = RetryTokens.newKey();
		QuicCodecDispatcher dispatcher = new QuicCodecDispatcher() {

			@Override
			protected void initChannel(Channel channel, int localConnectionIdLength,
					QuicConnectionIdGenerator idGenerator) {
				channel.pipeline().addLast(codec(config, tls, tokenKey, gso, localConnectionIdLength, idGenerator,
						connections, metrics.reactor(channel.eventLoop()).quic()));
			}

		};
		InetSocketAddress bindAddress = (address != null) ? new InetSocketAddress(address, port)
				: new InetSocketAddress(port);
		List<Channel> sockets = new ArrayList<>();
		try {
			if (reusePort) {
				for (Iterator<?> it = reactors.iterator(); it.hasNext();) {
					EventLoop loop = (EventLoop) it.next();
					sockets.add(bind(transport, loop, bindAddress, dispatcher, metrics, true, config));
				}
			}
			else {
				sockets.add(bind(transport, reactors.next(), bindAddress, dispatcher, metrics, false, config));
			}
		}
		catch (RuntimeException ex) {
			sockets.forEach(Channel::close);
			throw ex;
		}
		warnIfReceiveBufferCapped(sockets.get(0), config.receiveBufferSize());
		return new Http3Listener(sockets, gso, transport, metrics);
	}

	/**
	 * The kernel silently caps a socket's receive buffer at {@code net.core.rmem_max} (Linux reports twice the size it
	 * grants, for its own bookkeeping): say so once, with what to do, since a small buffer drops packets under load.
	 */
	private static void warnIfReceiveBufferCapped(Channel socket, int asked) {
		Integer granted = socket.config().getOption(ChannelOption.SO_RCVBUF);
		if (granted != null && granted < asked) {
			logger.warn("khamsin's HTTP/3 sockets got a UDP receive buffer of {} bytes, not the {} of "
					+ "khamsin.http3.receive-buffer-size: packets that arrive while it is full are dropped. Raise the "
					+ "kernel's limit (sysctl -w net.core.rmem_max={}) or lower the setting", granted, asked, asked);
		}
	}

	/**
	 * An ephemeral port number free on both TCP and UDP, for a server asked to listen on port 0 that serves HTTP/3 on
	 * the same number as HTTP/1.1 and HTTP/2.
	 * @param address the address to bind, or {@code null} for every local address
	 * @return the port
	 * @throws IllegalStateException if none was found in a few tries
	 */
	public static int freePort(InetAddress address) {
		for (int attempt = 0; attempt < 20; attempt++) {
			try (ServerSocket tcp = new ServerSocket()) {
				tcp.setReuseAddress(true);
				tcp.bind((address != null) ? new InetSocketAddress(address, 0) : new InetSocketAddress(0));
				int port = tcp.getLocalPort();
				try (DatagramSocket udp = new DatagramSocket(null)) {
					udp.bind((address != null) ? new InetSocketAddress(address, port) : new InetSocketAddress(port));
					return port;
				}
				catch (IOException ex) {
					// Taken on UDP: try another.
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("khamsin could not find a free port: " + ex.getMessage(), ex);
			}
		}
		throw new IllegalStateException("khamsin found no port free on both TCP and UDP in 20 tries");
	}

	private static Channel bind(ResolvedTransport transport, EventLoop loop, InetSocketAddress address,
			ChannelHandler dispatcher, KhamsinMetrics metrics, boolean reusePort, Http3Config config) {
		Bootstrap bootstrap = new Bootstrap().group(loop)
			.channel(datagramChannel(transport.transport()))
			.option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
			.option(ChannelOption.SO_RCVBUF, config.receiveBufferSize())
			.handler(new ChannelInitializer<Channel>() {

				@Override
				protected void initChannel(Channel channel) {
					if (metrics.reactor(channel.eventLoop()).enabled()) {
						channel.pipeline().addLast(metrics.reactor(channel.eventLoop()).trafficCounter());
					}
					channel.pipeline().addLast(dispatcher);
				}

			});
		if (reusePort) {
			bootstrap.option(UnixChannelOption.SO_REUSEPORT, true);
		}
		if (transport.transport() == Transport.EPOLL) {
			int slot = receiveSlot(config);
			bootstrap.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, slot)
				.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(slot * DATAGRAMS_PER_READ));
		}
		try {
			return bootstrap.bind(address).syncUninterruptibly().channel();
		}
		catch (Exception ex) {
			if (String.valueOf(ex.getMessage()).contains("Address already in use")) {
				throw new PortInUseException(address.getPort(), ex);
			}
			throw new IllegalStateException("khamsin could not bind UDP " + address + " for HTTP/3: " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * The room each datagram gets in a read: at least the largest payload the server advertises, and no less than a
	 * datagram read alone would have, since a datagram longer than its room arrives cut and its packet is lost.
	 */
	static int receiveSlot(Http3Config config) {
		return Math.max(config.maxUdpPayloadSize(), MIN_RECEIVE_SLOT);
	}

	private static Class<? extends DatagramChannel> datagramChannel(Transport transport) {
		return switch (transport) {
			case IO_URING -> IoUringDatagramChannel.class;
			case EPOLL -> EpollDatagramChannel.class;
			default -> NioDatagramChannel.class;
		};
	}

	private static ChannelHandler codec(Http3Config config, QuicTlsContexts tls, byte[] tokenKey, boolean gso,
			int localConnectionIdLength, QuicConnectionIdGenerator idGenerator, ConnectionInitializer connections,
			QuicCounters figures) {
		QuicServerCodecBuilder builder = Http3.newQuicServerCodecBuilder()
			.sslContext(tls.context())
			.maxIdleTimeout(config.idleTimeout().toMillis(), TimeUnit.MILLISECONDS)
			.maxRecvUdpPayloadSize(config.maxUdpPayloadSize())
			.maxSendUdpPayloadSize(config.maxUdpPayloadSize())
			.initialMaxData(config.initialMaxData())
			.initialMaxStreamDataBidirectionalLocal(config.initialMaxStreamData())
			.initialMaxStreamDataBidirectionalRemote(config.initialMaxStreamData())
			.initialMaxStreamsBidirectional(config.maxBidirectionalStreams())
			.initialMaxStreamsUnidirectional(config.maxUnidirectionalStreams())
			.congestionControlAlgorithm(QuicCongestionControlAlgorithm.valueOf(config.congestionControl().name()))
			.localConnectionIdLength(localConnectionIdLength)
			.connectionIdAddressGenerator(idGenerator)
			.tokenHandler(config.retry() ? new RetryTokens(tokenKey, figures) : RetryTokens.NONE)
			.option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
			.streamOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
			.handler(connections);
		if (gso) {
			builder.option(QuicChannelOption.SEGMENTED_DATAGRAM_PACKET_ALLOCATOR,
					EpollQuicUtils.newSegmentedAllocator(GSO_SEGMENTS));
		}
		return builder.build();
	}

	/** @return whether the sockets send bursts with UDP GSO */
	public boolean gso() {
		return this.gso;
	}

	@Override
	public ListenerInfo info() {
		return this.info;
	}

	/** Keep the sockets: they carry the connections that finish their streams while the server drains. */
	@Override
	public void stopAccepting(Duration timeout) {
	}

	@Override
	public void close(Duration timeout) {
		for (Channel socket : this.sockets) {
			socket.close().awaitUninterruptibly(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		logger.debug("khamsin closed its HTTP/3 sockets");
	}

}
