package io.khamsin.container.tls;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.quic.QuicSslSessionContext;
import io.netty.handler.codec.quic.SslSessionTicketKey;
import io.netty.handler.ssl.OpenSslServerSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;

/**
 * What keeps one identity's BoringSSL sessions its own: the keys that encrypt its session tickets (RFC 8446 section
 * 4.6.1, RFC 5077) and its session-id context. A ticket or a cached session carries the certificate served and the
 * client certificate verified; were the keys shared, a session from one SNI host name would resume under another,
 * whose certificate the client then never sees and whose trust never checks the client's. BoringSSL also refuses
 * a session whose session-id context is not the context's own, so a session id cached by one identity does not
 * resume under another either. The newest
 * key encrypts new tickets; the previous one still decrypts those issued during the last interval. A context the
 * JDK runs has its own {@code SSLContext}, whose session cache and ticket keys are its own already.
 * <p>
 * The identity's QUIC contexts ({@link QuicTlsContexts}) take the same keys and rotations, so that a QUIC ticket
 * lives no longer than a TCP one. Sharing the keys does not let a session cross over: BoringSSL resumes a session only
 * on the transport it was made on (QUIC or TCP), and the TCP context's session-id context is not the QUIC one's.
 */
final class TicketKeys {

	/** BoringSSL's {@code SSL_MAX_SID_CTX_LENGTH}. */
	private static final int SESSION_ID_CONTEXT_LENGTH = 32;

	private static final SecureRandom random = new SecureRandom();

	private final OpenSslServerSessionContext sessions;

	private final List<QuicSslSessionContext> quic = new ArrayList<>();

	private OpenSslSessionTicketKey current;

	private OpenSslSessionTicketKey previous;

	private TicketKeys(OpenSslServerSessionContext sessions) {
		this.sessions = sessions;
		this.current = newKey();
		if (sessions != null) {
			byte[] context = new byte[SESSION_ID_CONTEXT_LENGTH];
			random.nextBytes(context);
			sessions.setSessionIdContext(context);
			sessions.setTicketKeys(this.current);
		}
	}

	/**
	 * Give a new context keys and a session-id context of its own.
	 * @param context an identity's server context
	 * @return its keys
	 */
	static TicketKeys of(SslContext context) {
		return new TicketKeys((context instanceof ReferenceCountedOpenSslContext openSsl)
				? (OpenSslServerSessionContext) openSsl.sessionContext() : null);
	}

	/**
	 * Encrypt the tickets of a QUIC context of the same identity with these keys too, now and after every rotation.
	 * @param context the QUIC context's sessions
	 */
	synchronized void share(QuicSslSessionContext context) {
		this.quic.add(context);
		context.setTicketKeys(quicKeys());
	}

	/** Replace the keys: a new one encrypts, the one it replaces still decrypts, the one before is gone. */
	synchronized void rotate() {
		this.previous = this.current;
		this.current = newKey();
		if (this.sessions != null) {
			this.sessions.setTicketKeys(this.current, this.previous);
		}
		for (QuicSslSessionContext context : this.quic) {
			context.setTicketKeys(quicKeys());
		}
	}

	private SslSessionTicketKey[] quicKeys() {
		return (this.previous != null) ? new SslSessionTicketKey[] { quicKey(this.current), quicKey(this.previous) }
				: new SslSessionTicketKey[] { quicKey(this.current) };
	}

	private static SslSessionTicketKey quicKey(OpenSslSessionTicketKey key) {
		return new SslSessionTicketKey(key.name(), key.hmacKey(), key.aesKey());
	}

	private static OpenSslSessionTicketKey newKey() {
		byte[] name = new byte[OpenSslSessionTicketKey.NAME_SIZE];
		byte[] hmac = new byte[OpenSslSessionTicketKey.HMAC_KEY_SIZE];
		byte[] aes = new byte[OpenSslSessionTicketKey.AES_KEY_SIZE];
		random.nextBytes(name);
		random.nextBytes(hmac);
		random.nextBytes(aes);
		return new OpenSslSessionTicketKey(name, hmac, aes);
	}

}
