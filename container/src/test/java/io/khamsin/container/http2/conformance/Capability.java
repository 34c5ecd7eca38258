package io.khamsin.container.http2.conformance;

/**
 * What a case needs of a target beyond what every target runs: rules that Netty 4.2's HTTP/2 codec does not
 * enforce however it is configured, so that a server on it must add them in a handler of its own. A target declares
 * the ones it handles; the cases that need one run only against the targets that declare it, and the summary lists
 * them as not run for the others.
 */
enum Capability {

	/**
	 * A frame on a stream closed by END_STREAM both ways is a connection error STREAM_CLOSED (RFC 9113 section
	 * 5.1). Netty forgets a stream once it closes and answers such a frame with a stream error, RST_STREAM.
	 */
	CLOSED_STREAM_CONNECTION_ERROR,

	/**
	 * A HEADERS frame that would open a stream whose identifier is below one already opened is a connection error
	 * PROTOCOL_ERROR (RFC 9113 section 5.1.1). Netty cannot tell such a stream from a closed one and answers with
	 * RST_STREAM STREAM_CLOSED.
	 */
	STREAM_IDENTIFIER_ORDER,

	/**
	 * A second HEADERS frame on a half-closed (remote) stream is a stream error STREAM_CLOSED (RFC 9113 section
	 * 5.1). Netty validates the fields first and answers PROTOCOL_ERROR (request pseudo-header fields in a trailer
	 * block).
	 */
	HALF_CLOSED_STREAM_STATE_FIRST,

	/**
	 * A SETTINGS_INITIAL_WINDOW_SIZE that makes an open stream's window exceed 2^31-1 is a connection error
	 * FLOW_CONTROL_ERROR (RFC 9113 section 6.9.2). Netty resets each overflowing stream instead.
	 */
	SETTINGS_WINDOW_OVERFLOW_CONNECTION_ERROR,

	/**
	 * A flood of tiny WINDOW_UPDATE frames is counted and ended with GOAWAY ENHANCE_YOUR_CALM, as the other floods
	 * are. Netty has no limit on WINDOW_UPDATE frames.
	 */
	WINDOW_UPDATE_FLOOD_LIMIT

}
