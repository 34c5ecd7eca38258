package io.khamsin.container.transport;

/**
 * How a server listens for new connections.
 */
public enum ListenerMode {

	/**
	 * One {@code SO_REUSEPORT} listening socket per reactor; the kernel spreads new connections. Needs a native
	 * transport (io_uring or epoll); on NIO the server falls back to {@link #SHARED}.
	 */
	REUSEPORT,

	/** One listening socket whose accepted connections are handed to the reactors in turn. */
	SHARED;

	/**
	 * The name used in configuration and log lines.
	 * @return the display name
	 */
	public String displayName() {
		return (this == REUSEPORT) ? "reuseport" : "shared";
	}

}
