package io.khamsin.container.transport;

/**
 * The I/O transport a server's reactors run on.
 */
public enum Transport {

	/**
	 * io_uring when the kernel and native library allow it, else epoll, else NIO; epoll first for a server that serves
	 * HTTP/2 in cleartext (h2c), which does better there.
	 */
	AUTO,

	/** Linux io_uring; fails to start when it is not available. */
	IO_URING,

	/** Linux epoll; fails to start when it is not available. */
	EPOLL,

	/** Java NIO selectors, available everywhere. */
	NIO;

	/**
	 * The name used in configuration and log lines ({@code io_uring}, {@code epoll}, {@code nio}).
	 * @return the display name
	 */
	public String displayName() {
		return switch (this) {
			case AUTO -> "auto";
			case IO_URING -> "io_uring";
			case EPOLL -> "epoll";
			case NIO -> "nio";
		};
	}

}
