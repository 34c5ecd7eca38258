package io.khamsin.container.tls;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.LongSupplier;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;

/**
 * The keys that encrypt BoringSSL's session tickets (RFC 8446 section 4.6.1, RFC 5077), shared by every context of
 * a listener so that a ticket stays good whichever SNI name the client resumes under. The newest key encrypts new
 * tickets; the previous one still decrypts those issued during the last interval. A rotation is due once an
 * interval has passed, and happens when the next connection arrives, so that no timer runs and an idle server
 * keeps no key older than needed.
 */
final class TicketKeys {

	private final SecureRandom random = new SecureRandom();

	private final long intervalNanos;

	private final LongSupplier clock;

	private volatile long rotatedAt;

	private OpenSslSessionTicketKey current;

	private OpenSslSessionTicketKey previous;

	private long rotations;

	TicketKeys(Duration interval, LongSupplier clock) {
		this.intervalNanos = interval.toNanos();
		this.clock = clock;
		this.current = newKey();
		this.rotatedAt = clock.getAsLong();
	}

	/** @return whether an interval has passed since the last rotation; cheap, called per connection */
	boolean due() {
		return this.clock.getAsLong() - this.rotatedAt >= this.intervalNanos;
	}

	/**
	 * Replace the keys when due.
	 * @return whether they were replaced
	 */
	synchronized boolean rotateIfDue() {
		if (!due()) {
			return false;
		}
		this.previous = this.current;
		this.current = newKey();
		this.rotations++;
		this.rotatedAt = this.clock.getAsLong();
		return true;
	}

	synchronized long rotations() {
		return this.rotations;
	}

	/**
	 * Give a context the keys in force.
	 * @param context a context; one not run by BoringSSL keeps the JDK's own ticket keys
	 */
	synchronized void applyTo(SslContext context) {
		if (context instanceof ReferenceCountedOpenSslContext openSsl && context.isServer()) {
			if (this.previous != null) {
				openSsl.sessionContext().setTicketKeys(this.current, this.previous);
			}
			else {
				openSsl.sessionContext().setTicketKeys(this.current);
			}
		}
	}

	private OpenSslSessionTicketKey newKey() {
		byte[] name = new byte[OpenSslSessionTicketKey.NAME_SIZE];
		byte[] hmac = new byte[OpenSslSessionTicketKey.HMAC_KEY_SIZE];
		byte[] aes = new byte[OpenSslSessionTicketKey.AES_KEY_SIZE];
		this.random.nextBytes(name);
		this.random.nextBytes(hmac);
		this.random.nextBytes(aes);
		return new OpenSslSessionTicketKey(name, hmac, aes);
	}

}
