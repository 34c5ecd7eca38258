package io.khamsin.container.metrics;

/**
 * The QUIC figures of one reactor at one moment, or their sum over every reactor.
 *
 * @param name the reactor's name, or {@code total}
 * @param connectionsOpen the HTTP/3 connections open now
 * @param connections the HTTP/3 connections opened since start
 * @param streamsOpen the request streams open now
 * @param streams the request streams served since start
 * @param retriesSent the Retry packets sent to new clients since start (address validation)
 * @param tokensRejected the Initial packets dropped since start for a token that was forged, expired or issued to
 * another address
 * @param packetsSent the packets sent by the HTTP/3 connections closed since start
 * @param packetsReceived the packets received by the HTTP/3 connections closed since start
 * @param packetsLost the packets sent by the HTTP/3 connections closed since start that were lost
 */
public record QuicSnapshot(String name, long connectionsOpen, long connections, long streamsOpen, long streams,
		long retriesSent, long tokensRejected, long packetsSent, long packetsReceived, long packetsLost) {

	static QuicSnapshot empty(String name) {
		return new QuicSnapshot(name, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	}

	QuicSnapshot plus(QuicSnapshot other) {
		return new QuicSnapshot(this.name, this.connectionsOpen + other.connectionsOpen,
				this.connections + other.connections, this.streamsOpen + other.streamsOpen,
				this.streams + other.streams, this.retriesSent + other.retriesSent,
				this.tokensRejected + other.tokensRejected, this.packetsSent + other.packetsSent,
				this.packetsReceived + other.packetsReceived, this.packetsLost + other.packetsLost);
	}

}
