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

	/**
	 * A request body that arrives slower than {@code khamsin.min-request-body-rate} once its grace period is over (a
	 * slow-POST attack): 408 and close.
	 */
	MIN_REQUEST_BODY_RATE("min-request-body-rate", 408),

	/**
	 * A connection whose socket took none of its response for {@code khamsin.send-timeout} (a client that stopped
	 * reading, or a slow-read attack): closed.
	 */
	SEND_TIMEOUT("send-timeout", 0),

	/** A handler that did not begin its response within {@code khamsin.request-timeout}: cancelled, and 503. */
	REQUEST_TIMEOUT("request-timeout", 503),

	/**
	 * A request for the application read after it had waited longer than {@code khamsin.overload.max-queue-delay}
	 * for its reactor (the server is past its capacity): 503 with {@code Retry-After}, the connection kept.
	 */
	OVERLOAD("overload", 503),

	/** A keep-alive connection idle for too long: closed. */
	IDLE_TIMEOUT("idle-timeout", 0),

	/**
	 * A TLS connection whose handshake did not complete within {@code khamsin.tls.handshake-timeout} of its start (a
	 * client that went silent, or one of a flood of abandoned handshakes): closed.
	 */
	TLS_HANDSHAKE_TIMEOUT("tls-handshake-timeout", 0),

	/** A request that could not be parsed: 400. */
	BAD_REQUEST("bad-request", 400),

	/**
	 * An HTTP/2 stream beyond {@code khamsin.http2.max-concurrent-streams}: reset with {@code REFUSED_STREAM}
	 * (RFC 9113, section 5.1.2).
	 */
	H2_MAX_CONCURRENT_STREAMS("h2-max-concurrent-streams", 0),

	/**
	 * An HTTP/2 header list larger than {@code khamsin.http2.max-header-list-size}: 431, or GOAWAY when far larger
	 * (RFC 9113, section 10.5.1).
	 */
	H2_MAX_HEADER_LIST_SIZE("h2-max-header-list-size", 431),

	/** Streams reset by an HTTP/2 client faster than allowed (Rapid Reset, CVE-2023-44487): GOAWAY. */
	H2_RAPID_RESET("h2-rapid-reset", 0),

	/** Streams an HTTP/2 client made the server reset faster than allowed (MadeYouReset, CVE-2025-8671): GOAWAY. */
	H2_PROVOKED_RESETS("h2-provoked-resets", 0),

	/** A header block sent in too many small CONTINUATION frames (CONTINUATION Flood, CVE-2024-27316): GOAWAY. */
	H2_CONTINUATION_FLOOD("h2-continuation-flood", 0),

	/** Control frames (SETTINGS, PING) sent faster than their answers are read: GOAWAY. */
	H2_CONTROL_FRAME_FLOOD("h2-control-frame-flood", 0),

	/** DATA frames with neither payload nor end of stream, one after another: GOAWAY. */
	H2_EMPTY_DATA_FRAMES("h2-empty-data-frames", 0),

	/** More WINDOW_UPDATE frames than the DATA frames sent to the client call for: GOAWAY. */
	H2_WINDOW_UPDATE_FLOOD("h2-window-update-flood", 0),

	/**
	 * HTTP/3 request streams a client ended before their responses (reset, stopped, or made the server reset them)
	 * faster than {@code khamsin.http3.max-resets-per-window} allows, as HTTP/2's Rapid Reset: the connection is closed
	 * with {@code H3_EXCESSIVE_LOAD}.
	 */
	H3_RAPID_RESET("h3-rapid-reset", 0);

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
