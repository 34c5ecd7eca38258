package io.khamsin.container.tls;

import java.nio.channels.ClosedChannelException;
import java.util.Locale;

import io.netty.handler.ssl.SslHandshakeTimeoutException;

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

	/**
	 * The reason behind a handshake's failure, from what Netty, BoringSSL or the JDK report.
	 * @param cause the failure
	 * @return the reason
	 */
	static HandshakeFailure of(Throwable cause) {
		for (Throwable current = cause; current != null; current = current.getCause()) {
			if (current instanceof SslHandshakeTimeoutException) {
				return TIMEOUT;
			}
			if (current instanceof ClosedChannelException) {
				return CLOSED;
			}
			String message = String.valueOf(current.getMessage()).toLowerCase(Locale.ROOT);
			if (message.contains("unsupported_protocol") || message.contains("protocol is disabled")
					|| message.contains("not enabled or supported") || message.contains("protocol_version")
					|| message.contains("unsupported protocol") || message.contains("no appropriate protocol")) {
				return PROTOCOL_VERSION;
			}
			if (message.contains("no_shared_cipher") || message.contains("no cipher suites in common")
					|| message.contains("no_shared_group") || message.contains("no_common_signature")
					|| message.contains("no negotiable cipher")) {
				return NO_SHARED_CIPHER;
			}
			if (message.contains("alert_bad_certificate") || message.contains("alert_unknown_ca")
					|| message.contains("alert_certificate_unknown") || message.contains("fatal alert: certificate_unknown")
					|| message.contains("fatal alert: bad_certificate") || message.contains("fatal alert: unknown_ca")) {
				return CERTIFICATE_REFUSED;
			}
			if (message.contains("peer_did_not_return_a_certificate") || message.contains("empty client certificate")
					|| message.contains("certificate_verify_failed") || message.contains("pkix path")
					|| message.contains("certificate_required")) {
				return CLIENT_CERTIFICATE;
			}
			if (message.contains("closed") || message.contains("connection reset")) {
				return CLOSED;
			}
			if (message.contains("not an ssl/tls record") || message.contains("wrong_version_number")
					|| message.contains("unexpected_record") || message.contains("clienthello")
					|| message.contains("decode_error") || message.contains("unsupported or unrecognized ssl message")) {
				return MALFORMED;
			}
		}
		return OTHER;
	}

}
