package io.khamsin.container.http2.conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One target as a case sees it: connections to it, each closed when the case ends, and the check every abuse case
 * ends with, that a fresh connection is still served.
 */
final class Peer implements AutoCloseable {

	/** How long the server has for each answer; seconds, so that a loaded machine does not fail a case. */
	static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("khamsin.h2.conformance.timeout-seconds", 5));

	private final String targetName;

	private final Endpoint endpoint;

	private final List<H2Connection> connections = new ArrayList<>();

	Peer(String targetName, Endpoint endpoint) {
		this.targetName = targetName;
		this.endpoint = endpoint;
	}

	/** A connection on which nothing was sent yet. */
	H2Connection connect() throws IOException {
		return connect(0);
	}

	/** A connection with a receive buffer of the given size, on which nothing was sent yet. */
	synchronized H2Connection connect(int receiveBuffer) throws IOException {
		H2Connection connection = H2Connection.open(this.endpoint, TIMEOUT, receiveBuffer);
		this.connections.add(connection);
		return connection;
	}

	/** A connection past the preface, with the client's settings as identifier and value pairs. */
	H2Connection handshake(long... settings) throws IOException {
		return connect().handshake(settings);
	}

	/** A fresh connection gets a 200 for a GET within the timeout. */
	void stillServes() throws IOException {
		try (H2Connection fresh = H2Connection.open(this.endpoint, TIMEOUT, 0).handshake()) {
			fresh.get(1);
			assertThat(fresh.expect().response(1).status())
				.as("the GET of a fresh connection to %s after the attack", this.targetName)
				.isEqualTo(200);
		}
	}

	@Override
	public synchronized void close() throws IOException {
		for (H2Connection connection : this.connections) {
			connection.close();
		}
		this.connections.clear();
	}

}
