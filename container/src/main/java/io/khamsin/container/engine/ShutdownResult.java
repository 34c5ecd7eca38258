package io.khamsin.container.engine;

import io.khamsin.container.KhamsinServer;

/**
 * How a graceful shutdown of a {@link KhamsinServer} ended.
 */
public enum ShutdownResult {

	/** Every in-flight request completed; no connection is left open. */
	IDLE,

	/** The server was stopped while requests were still active. */
	REQUESTS_ACTIVE

}
