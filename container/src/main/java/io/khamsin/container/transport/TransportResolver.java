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
 * io_uring, else epoll, else NIO, and keeps the reason each better one was skipped; an explicit choice that is
 * not available fails with a message that says why and what to do.
 */
public final class TransportResolver {

	private TransportResolver() {
	}

	/**
	 * Resolve the transport.
	 * @param requested the configured transport
	 * @return the transport to run
	 * @throws IllegalStateException if an explicitly requested transport is not available
	 */
	public static ResolvedTransport resolve(Transport requested) {
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
			case AUTO -> auto();
		};
	}

	private static ResolvedTransport auto() {
		String ioUring = ioUringUnavailability();
		if (ioUring == null) {
			return ioUring(null);
		}
		String epoll = epollUnavailability();
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
