package io.khamsin.container.metrics;

/**
 * The QUIC figures of one reactor at one moment, or their sum over every reactor.
 *
 * @param name the reactor's name, or {@code total}
 * @param connectionsOpen the HTTP/3 connections open now
 * @param connections the HTTP/3 connections opened since start
 * @param streamsOpen the request streams open now
 * @param streams the request streams served since start
 */
public record QuicSnapshot(String name, long connectionsOpen, long connections, long streamsOpen, long streams) {

	static QuicSnapshot empty(String name) {
		return new QuicSnapshot(name, 0, 0, 0, 0);
	}

	QuicSnapshot plus(QuicSnapshot other) {
		return new QuicSnapshot(this.name, this.connectionsOpen + other.connectionsOpen,
				this.connections + other.connections, this.streamsOpen + other.streamsOpen,
				this.streams + other.streams);
	}

}
