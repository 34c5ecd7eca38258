package io.khamsin.container.transport;

import java.time.Duration;

/**
 * A bound listener of a running server, on the server's reactors: TCP ({@link TcpListener}), or QUIC on UDP sockets
 * beside it, so that the server starts, describes and closes each alike.
 */
public interface Listener {

	/**
	 * What the listener is bound to and offers.
	 * @return its description
	 */
	ListenerInfo info();

	/**
	 * Stop accepting: close the listening sockets, waiting for them to close.
	 * @param timeout how long to wait at most
	 */
	void close(Duration timeout);

	/**
	 * Stop taking new connections for a graceful shutdown, leaving the open ones to finish: a TCP listener closes its
	 * listening sockets; a QUIC listener keeps its UDP sockets, which carry its open connections too, and refuses new
	 * connections through the registry, which refuses every connection while the server drains.
	 * @param timeout how long to wait at most
	 */
	default void stopAccepting(Duration timeout) {
		close(timeout);
	}

}
