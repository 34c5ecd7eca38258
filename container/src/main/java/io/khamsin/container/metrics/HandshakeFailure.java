package io.khamsin.container.metrics;

import java.util.Locale;

/**
 * Why a connection to a TLS port did not complete its handshake, as counted in {@link TlsFigures}. Every reason but
 * {@link #OTHER} is the client's doing and is only counted. A connection that closes before it sends a byte made
 * no handshake and has no reason: it is counted apart ({@link HandshakeCounts#closedBeforeHello()}).
 */
public enum HandshakeFailure {

	/** The client spoke plain HTTP (or another cleartext protocol) to the TLS port. */
	CLEARTEXT,

	/** The client sent bytes that are no TLS record or a malformed ClientHello. */
	MALFORMED,

	/** The client offered only protocols khamsin does not speak (SSL 3, TLS 1.0, TLS 1.1). */
	PROTOCOL_VERSION,

	/**
	 * The client offered by ALPN only application protocols the listener does not speak, and was answered with the
	 * {@code no_application_protocol} alert (RFC 7301 section 3.2).
	 */
	NO_APPLICATION_PROTOCOL,

	/** The client and the server share no cipher suite (or no signature scheme or group). */
	NO_SHARED_CIPHER,

	/** Client authentication failed: no certificate where one is required, or an untrusted one. */
	CLIENT_CERTIFICATE,

	/** The client asked to renegotiate a TLS 1.2 session, which khamsin refuses. */
	RENEGOTIATION,

	/** The client refused the server's certificate (its alert said: unknown CA, bad or unknown certificate). */
	CERTIFICATE_REFUSED,

	/** The handshake did not complete within the handshake timeout. */
	TIMEOUT,

	/** The client closed the connection during the handshake (often: it did not trust the certificate). */
	CLOSED,

	/**
	 * Any other reason, not the client's doing as far as khamsin can tell: logged at WARN once a minute per cause,
	 * with what to do; the debug log of {@code io.khamsin.container.tls} has each connection.
	 */
	OTHER;

	/**
	 * The name used as a metric tag and in {@code /actuator/khamsin}: the constant in lower case, words joined by
	 * {@code -} (e.g. {@code no-shared-cipher}).
	 * @return the tag
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
