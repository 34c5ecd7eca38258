package io.khamsin.container.metrics;

/**
 * The figures of one reactor at one moment, or their sum over every reactor.
 *
 * @param name the reactor's name
 * @param connectionsOpen the connections open now
 * @param connectionsAccepted the connections admitted since start
 * @param connectionsClosed the admitted connections closed since start
 * @param connectionsRefused the connections refused since start (too many open, or shutting down)
 * @param requestsActive the requests being served now
 * @param requests the requests served (or abandoned) since start
 * @param bytesReceived the bytes read from clients since start
 * @param bytesSent the bytes written to clients since start
 * @param pendingTasks the tasks queued on the reactor now, a measure of its load
 */
public record ReactorSnapshot(String name, long connectionsOpen, long connectionsAccepted, long connectionsClosed,
		long connectionsRefused, long requestsActive, long requests, long bytesReceived, long bytesSent,
		long pendingTasks) {

	ReactorSnapshot plus(ReactorSnapshot other) {
		return new ReactorSnapshot(this.name, this.connectionsOpen + other.connectionsOpen,
				this.connectionsAccepted + other.connectionsAccepted, this.connectionsClosed + other.connectionsClosed,
				this.connectionsRefused + other.connectionsRefused, this.requestsActive + other.requestsActive,
				this.requests + other.requests, this.bytesReceived + other.bytesReceived,
				this.bytesSent + other.bytesSent, this.pendingTasks + other.pendingTasks);
	}

}
