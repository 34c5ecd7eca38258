package io.khamsin.container.tls;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When the session ticket keys of a listener's identities are replaced: once an interval has passed, checked when
 * the next connection arrives.
 */
final class TicketKeyRotation {

	private final long intervalNanos;

	private final LongSupplier clock;

	private volatile long rotatedAt;

	private long rotations;

	TicketKeyRotation(Duration interval, LongSupplier clock) {
		this.intervalNanos = interval.toNanos();
		this.clock = clock;
		this.rotatedAt = clock.getAsLong();
	}

	/** @return whether an interval has passed since the last rotation; cheap, called per connection */
	boolean due() {
		return this.clock.getAsLong() - this.rotatedAt >= this.intervalNanos;
	}

	/**
	 * Count a rotation when due.
	 * @return whether the keys are to be replaced now
	 */
	synchronized boolean rotateIfDue() {
		if (!due()) {
			return false;
		}
		this.rotations++;
		this.rotatedAt = this.clock.getAsLong();
		return true;
	}

	synchronized long rotations() {
		return this.rotations;
	}

}
