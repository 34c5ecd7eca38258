package io.khamsin.container.tls;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.metrics.HandshakeFailure;

/**
 * Tells the operator of the handshake failures that are not the client's doing, at WARN and with what to do: each
 * distinct cause once per interval (a minute), and with its next line how often it came in between, so that a key
 * store that lost its key or a provider's error shows in the log without flooding it. Failures a client causes
 * (cleartext, an old protocol, no shared suite, a refused certificate on either side, a timeout, a close) are only
 * counted, as figures. Used on failures only; a handshake that succeeds never reaches it.
 */
final class HandshakeFailureLog {

	private static final Logger logger = LoggerFactory.getLogger(HandshakeFailureLog.class);

	/** Distinct causes kept apart; past this many, a reason's further causes share one line. */
	private static final int MAX_CAUSES = 64;

	private final long intervalNanos;

	private final LongSupplier clock;

	private final UnaryOperator<String> identityName;

	private final Map<String, Cause> causes = new ConcurrentHashMap<>();

	/**
	 * @param identityName the configured name of the identity that serves a client's SNI host name
	 */
	HandshakeFailureLog(UnaryOperator<String> identityName) {
		this(identityName, 60_000_000_000L, System::nanoTime);
	}

	HandshakeFailureLog(UnaryOperator<String> identityName, long intervalNanos, LongSupplier clock) {
		this.identityName = identityName;
		this.intervalNanos = intervalNanos;
		this.clock = clock;
	}

	/**
	 * Hear of a failed handshake.
	 * @param reason its reason
	 * @param hostName the SNI host name the client sent, or {@code null}
	 * @param cause what the provider reported, or {@code null}
	 * @return whether a line was logged
	 */
	boolean failed(HandshakeFailure reason, String hostName, Throwable cause) {
		if (reason != HandshakeFailure.OTHER) {
			return false;
		}
		// The identity's configured name: a client's own text neither reaches the log nor grows the causes.
		String serverName = this.identityName.apply(hostName);
		String what = describe(cause);
		String key = reason + " " + serverName + " " + what;
		Cause seen = this.causes.get(key);
		if (seen == null) {
			seen = (this.causes.size() < MAX_CAUSES) ? this.causes.computeIfAbsent(key, (k) -> new Cause())
					: this.causes.computeIfAbsent(reason.name(), (k) -> new Cause());
		}
		long repeats = seen.claim(this.clock.getAsLong(), this.intervalNanos);
		if (repeats < 0) {
			return false;
		}
		logger.warn("khamsin could not complete TLS handshakes for {} ({}): {}. It is not the client's doing: look "
				+ "for what the provider or the key store reports above or at debug, and set "
				+ "logging.level.io.khamsin.container.tls=debug to see each connection{}",
				(serverName != null) ? "server name " + serverName : "the default host", reason.tag(), what,
				(repeats > 0) ? " (" + repeats + " more since the last line)" : "");
		return true;
	}

	private static String describe(Throwable cause) {
		if (cause == null) {
			return "no cause reported";
		}
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String text = (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
		return (root == cause) ? text : cause.getMessage() + " (" + text + ")";
	}

	/**
	 * When a cause may be logged next, and how often it came since.
	 */
	private static final class Cause {

		private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);

		private final AtomicLong suppressed = new AtomicLong();

		/** @return the repeats to report when this failure is to be logged, or -1 when it is only counted */
		long claim(long now, long interval) {
			long due = this.next.get();
			if ((due == Long.MIN_VALUE || now - due >= 0) && this.next.compareAndSet(due, now + interval)) {
				return this.suppressed.getAndSet(0);
			}
			this.suppressed.incrementAndGet();
			return -1;
		}

	}

}
