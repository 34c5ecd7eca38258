package io.khamsin.container.engine;

/**
 * How a graceful shutdown of a server ended: what the future of {@link ConnectionRegistry#drain()} completes with.
 */
public enum ShutdownResult {

	/** Every in-flight request completed; no connection is left open. */
	IDLE,

	/** The server was stopped while requests were still active. */
	REQUESTS_ACTIVE

}
