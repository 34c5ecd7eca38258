package io.khamsin.container.shutdown;

/**
 * A steady load on one server, closed loop: each connection sends its next request as soon as one is answered, and
 * a connection that is closed or told to go is replaced by a new one, until a new one is refused. Every request id
 * the load takes from the drill's counter gets exactly one outcome in its tally.
 */
interface Load {

	/** Send no more requests and open no more connections; what is in flight still finishes. */
	void stopSending();

	/** Release the load's threads, once every request it sent has an outcome. */
	void close();

}
