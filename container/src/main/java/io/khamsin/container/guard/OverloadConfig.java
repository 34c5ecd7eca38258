package io.khamsin.container.guard;

import java.time.Duration;

/**
 * The immutable configuration of admission control: when the server is past its capacity, a request for the
 * application is answered {@code 503 Service Unavailable} with {@code Retry-After} at once, instead of waiting behind
 * every other.
 *
 * @param maxQueueDelay the longest a request may have waited for its reactor, counted from the moment the reactor
 * began the turn in which it reads the request, before it is refused; {@code null} for no admission control (the
 * default)
 * @param retryAfter the {@code Retry-After} of a refusal, rounded up to whole seconds
 */
public record OverloadConfig(Duration maxQueueDelay, Duration retryAfter) {

	/** Default {@code Retry-After}: one second, the shortest the header can say. */
	public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

	public OverloadConfig {
		if (maxQueueDelay != null && (maxQueueDelay.isNegative() || maxQueueDelay.isZero())) {
			throw new IllegalArgumentException("maxQueueDelay must be a positive duration, was " + maxQueueDelay);
		}
		if (retryAfter == null || retryAfter.isNegative()) {
			throw new IllegalArgumentException("retryAfter must be zero or a positive duration, was " + retryAfter);
		}
	}

	/**
	 * No admission control, as by default: every request waits for its turn.
	 * @return the configuration
	 */
	public static OverloadConfig disabled() {
		return new OverloadConfig(null, DEFAULT_RETRY_AFTER);
	}

	/**
	 * Requests that waited longer than {@code maxQueueDelay} refused.
	 * @param maxQueueDelay the longest wait
	 * @return the configuration
	 */
	public static OverloadConfig maxQueueDelay(Duration maxQueueDelay) {
		if (maxQueueDelay == null) {
			throw new IllegalArgumentException("maxQueueDelay must not be null");
		}
		return new OverloadConfig(maxQueueDelay, DEFAULT_RETRY_AFTER);
	}

	/** @return whether requests are refused when the server is past its capacity */
	public boolean enabled() {
		return this.maxQueueDelay != null;
	}

	/** @return the value of the {@code Retry-After} header: whole seconds, rounded up */
	public String retryAfterSeconds() {
		long seconds = this.retryAfter.getSeconds() + ((this.retryAfter.getNano() > 0) ? 1 : 0);
		return Long.toString(seconds);
	}

}
