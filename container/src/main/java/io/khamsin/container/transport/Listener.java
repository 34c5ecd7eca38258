package io.khamsin.container.transport;

import java.time.Duration;

/**
 * A bound listener of a running server, on the server's reactors: TCP ({@link TcpListener}) today; a QUIC listener
 * on UDP sockets joins as another, so that the server starts, describes and closes each alike.
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

}
