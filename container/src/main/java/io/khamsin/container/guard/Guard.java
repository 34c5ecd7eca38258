package io.khamsin.container.guard;

/**
 * A guard that a client can trip, with the status it answers.
 */
public enum Guard {

	/** A new connection refused because the maximum of open connections was reached. */
	MAX_CONNECTIONS("max-connections", 0),

	/** A request line longer than the maximum: 414. */
	MAX_INITIAL_LINE_LENGTH("max-initial-line-length", 414),

	/** A request head larger than the maximum: 431. */
	MAX_HEADER_SIZE("max-header-size", 431),

	/** A request body larger than the maximum: 413. */
	MAX_REQUEST_BODY_SIZE("max-request-body-size", 413),

	/** A request head sent too slowly: 408 and close. */
	HEADER_READ_TIMEOUT("header-read-timeout", 408),

	/** A request body that stalled: 408 and close. */
	BODY_READ_TIMEOUT("body-read-timeout", 408),

	/** A keep-alive connection idle for too long: closed. */
	IDLE_TIMEOUT("idle-timeout", 0),

	/** A request that could not be parsed: 400. */
	BAD_REQUEST("bad-request", 400);

	private final String tag;

	private final int status;

	Guard(String tag, int status) {
		this.tag = tag;
		this.status = status;
	}

	/**
	 * The name used as a metric tag and in log lines.
	 * @return the tag
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * The status answered when the guard trips, or {@code 0} when the connection is closed without an answer.
	 * @return the status
	 */
	public int status() {
		return this.status;
	}

}
