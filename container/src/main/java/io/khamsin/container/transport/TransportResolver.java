package io.khamsin.container.transport;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

/**
 * Resolves a configured {@link Transport} to the one this machine can run. {@link Transport#AUTO} takes
 * io_uring, else epoll, else NIO, and keeps the reason each better one was skipped; a server that serves HTTP/2
 * or HTTP/3 takes epoll first (see {@link #HTTP2_ON_EPOLL} and {@link #HTTP3_ON_EPOLL}). An explicit choice that
 * is not available fails with a message that says why and what to do.
 */
public final class TransportResolver {

	/**
	 * Why {@link Transport#AUTO} takes epoll for a server that serves HTTP/2, over TLS or in cleartext. Netty's
	 * io_uring reactor handles completions for up to 128 passes before it runs a task, and shares one array of 1,024
	 * I/O vectors among all its connections' writes between two submissions; khamsin works around both on io_uring
	 * ({@link ReadPacing}, {@link WriteCoalescing}), which about doubles h2c there. A write there completes a ring pass
	 * after its flush, and while answered exchanges listened for their last writes the collector took 4.8x its epoll
	 * time per request; since they no longer do, h2c on io_uring is level with epoll (1.12x, rounds 0.98x-1.15x), and
	 * HTTP/2 over TLS does 0.86x of epoll (h2load, 64 connections of 100 streams, medians of 3 rounds). A server
	 * without HTTP/2 stays on io_uring, where HTTP/1.1 does best.
	 */
	static final String HTTP2_ON_EPOLL = "HTTP/2 is enabled, and HTTP/2 over TLS on io_uring measured 0.86x of epoll;"
			+ " set khamsin.transport=io-uring to run on io_uring anyway";

	/**
	 * Why {@link Transport#AUTO} takes epoll for a server that serves HTTP/3: its QUIC sockets run on the reactors'
	 * transport, and on io_uring's datagram channel HTTP/3 did 0.61x of epoll's (the median of four interleaved
	 * rounds, 0.54x-0.85x: 64 QUIC connections of 32 streams on /plaintext through WebFlux, server and generator each
	 * on a core of their own), where epoll also sends a burst to one client in one {@code sendmsg} (UDP GSO).
	 */
	static final String HTTP3_ON_EPOLL = "HTTP/3 is enabled, and HTTP/3 on io_uring's datagram sockets measured 0.61x of"
			+ " epoll; set khamsin.transport=io-uring to run on io_uring anyway";

	private TransportResolver() {
	}

	/**
	 * Resolve the transport.
	 * @param requested the configured transport
	 * @param http2 whether the server serves HTTP/2
	 * @param http3 whether the server serves HTTP/3
	 * @return the transport to run
	 * @throws IllegalStateException if an explicitly requested transport is not available
	 */
	public static ResolvedTransport resolve(Transport requested, boolean http2, boolean http3) {
		return switch (requested) {
			case IO_URING -> {
				requireAvailable("io-uring", ioUringUnavailability());
				yield ioUring(null);
			}
			case EPOLL -> {
				requireAvailable("epoll", epollUnavailability());
				yield epoll(null);
			}
			case NIO -> nio(null);
			case AUTO -> auto(http2, http3);
		};
	}

	private static ResolvedTransport auto(boolean http2, boolean http3) {
		String ioUring = ioUringUnavailability();
		String epoll = epollUnavailability();
		if (http2 && ioUring == null && epoll == null) {
			return epoll(HTTP2_ON_EPOLL);
		}
		if (http3 && ioUring == null && epoll == null) {
			return epoll(HTTP3_ON_EPOLL);
		}
		if (ioUring == null) {
			return ioUring(null);
		}
		if (epoll == null) {
			return epoll("io_uring not available: " + ioUring);
		}
		return nio("io_uring not available: " + ioUring + "; epoll not available: " + epoll);
	}

	private static void requireAvailable(String name, String unavailability) {
		if (unavailability != null) {
			throw new IllegalStateException("khamsin.transport=" + name + " is not available on this machine ("
					+ unavailability + "); set khamsin.transport=auto to fall back");
		}
	}

	private static ResolvedTransport ioUring(String reason) {
		return new ResolvedTransport(Transport.IO_URING, IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class,
				true, reason);
	}

	private static ResolvedTransport epoll(String reason) {
		return new ResolvedTransport(Transport.EPOLL, EpollIoHandler.newFactory(), EpollServerSocketChannel.class, true,
				reason);
	}

	private static ResolvedTransport nio(String reason) {
		return new ResolvedTransport(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class, false,
				reason);
	}

	/**
	 * @param transport a transport
	 * @return why this machine cannot run it, or {@code null} when it can (NIO and {@code auto} always can)
	 */
	static String unavailability(Transport transport) {
		return switch (transport) {
			case IO_URING -> ioUringUnavailability();
			case EPOLL -> epollUnavailability();
			case NIO, AUTO -> null;
		};
	}

	static String ioUringUnavailability() {
		try {
			return IoUring.isAvailable() ? null : describe(IoUring.unavailabilityCause());
		}
		catch (Throwable ex) {
			return describe(ex);
		}
	}

	static String epollUnavailability() {
		try {
			return Epoll.isAvailable() ? null : describe(Epoll.unavailabilityCause());
		}
		catch (Throwable ex) {
			return describe(ex);
		}
	}

	private static String describe(Throwable cause) {
		if (cause == null) {
			return "unknown reason";
		}
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getMessage();
		return root.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

}
