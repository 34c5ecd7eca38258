package io.khamsin.benchmark.leak;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The request shapes of one wire (HTTP/1.1 and HTTP/2 on TCP, or HTTP/3 on QUIC), and the ordinary traffic the probe
 * sends between garbage collections so that the server allocates and its leak detector looks at what was collected.
 */
interface Shapes extends AutoCloseable {

	/** @return each shape by the name the report gives it, in the order they are sent */
	Map<String, Shape> shapes();

	/**
	 * Send ordinary complete requests with bodies, ignoring failures.
	 * @param requests how many
	 */
	void ordinaryTraffic(int requests);

	/**
	 * Wait for the server to answer an ordinary request.
	 * @param seconds how long to try
	 * @return whether it answered
	 */
	boolean answers(int seconds);

	@Override
	default void close() {
	}

	/** One shape: sent once per call, on a connection of its own. */
	@FunctionalInterface
	interface Shape {

		/**
		 * Send the shape.
		 * @param iteration the how-manieth time, from 0
		 * @throws IOException when the server ended the connection before the shape was sent
		 */
		void send(int iteration) throws IOException;

	}

	/**
	 * A shape that sends many of its connections at once, for one that waits on the server's clock.
	 */
	interface Batched extends Shape {

		/**
		 * Send the shape {@code times} times at once.
		 * @param times how many
		 * @param failures where to add why each failed send failed
		 */
		void sendAll(int times, List<String> failures);

		@Override
		default void send(int iteration) throws IOException {
			List<String> failures = new ArrayList<>();
			sendAll(1, failures);
			if (!failures.isEmpty()) {
				throw new IOException(failures.get(0));
			}
		}

	}

}
