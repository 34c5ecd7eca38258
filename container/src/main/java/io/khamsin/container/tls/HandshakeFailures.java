package io.khamsin.container.tls;

import java.nio.channels.ClosedChannelException;
import java.util.Locale;

import io.netty.handler.ssl.SslHandshakeTimeoutException;

import io.khamsin.container.metrics.HandshakeFailure;

/**
 * Reads why a handshake failed from what Netty, BoringSSL or the JDK report, as the {@link HandshakeFailure} it is
 * counted under: their exceptions and alert texts differ, the reasons do not.
 */
final class HandshakeFailures {

	private HandshakeFailures() {
	}

	/**
	 * The reason behind a handshake's failure, from what Netty, BoringSSL or the JDK report.
	 * @param cause the failure
	 * @return the reason
	 */
	static HandshakeFailure of(Throwable cause) {
		for (Throwable current = cause; current != null; current = current.getCause()) {
			if (current instanceof SslHandshakeTimeoutException) {
				return HandshakeFailure.TIMEOUT;
			}
			if (current instanceof ClosedChannelException) {
				return HandshakeFailure.CLOSED;
			}
			String message = String.valueOf(current.getMessage()).toLowerCase(Locale.ROOT);
			if (message.contains("unsupported_protocol") || message.contains("protocol is disabled")
					|| message.contains("not enabled or supported") || message.contains("protocol_version")
					|| message.contains("unsupported protocol") || message.contains("no appropriate protocol")) {
				return HandshakeFailure.PROTOCOL_VERSION;
			}
			if (message.contains("no_shared_cipher") || message.contains("no cipher suites in common")
					|| message.contains("no_shared_group") || message.contains("no_common_signature")
					|| message.contains("no negotiable cipher")) {
				return HandshakeFailure.NO_SHARED_CIPHER;
			}
			if (message.contains("alert_bad_certificate") || message.contains("alert_unknown_ca")
					|| message.contains("alert_certificate_unknown") || message.contains("fatal alert: certificate_unknown")
					|| message.contains("fatal alert: bad_certificate") || message.contains("fatal alert: unknown_ca")) {
				return HandshakeFailure.CERTIFICATE_REFUSED;
			}
			if (message.contains("peer_did_not_return_a_certificate") || message.contains("empty client certificate")
					|| message.contains("certificate_verify_failed") || message.contains("pkix path")
					|| message.contains("certificate_required")) {
				return HandshakeFailure.CLIENT_CERTIFICATE;
			}
			if (message.contains("closed") || message.contains("connection reset")) {
				return HandshakeFailure.CLOSED;
			}
			if (message.contains("not an ssl/tls record") || message.contains("wrong_version_number")
					|| message.contains("unexpected_record") || message.contains("clienthello")
					|| message.contains("decode_error") || message.contains("unsupported or unrecognized ssl message")) {
				return HandshakeFailure.MALFORMED;
			}
		}
		return HandshakeFailure.OTHER;
	}

}
