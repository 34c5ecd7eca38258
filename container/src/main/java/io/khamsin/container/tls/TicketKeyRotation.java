package io.khamsin.container.tls;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The timer that replaces the session ticket keys of a listener's identities once per interval, on a reactor of the
 * listener, whether or not connections arrive: an idle server keeps no key longer than it says. The first
 * replacement comes one interval after the last one (or after the keys were made), so a server stopped and started
 * again does not keep a key longer either.
 */
final class TicketKeyRotation {

	private final long intervalNanos;

	private final LongSupplier clock;

	private volatile long rotatedAt;

	private volatile long rotations;

	TicketKeyRotation(Duration interval, LongSupplier clock) {
		this.intervalNanos = interval.toNanos();
		this.clock = clock;
		this.rotatedAt = clock.getAsLong();
	}

	/**
	 * Start the timer.
	 * @param executor where it runs
	 * @param rotate what replaces the keys
	 * @return the timer
	 */
	ScheduledFuture<?> start(ScheduledExecutorService executor, Runnable rotate) {
		long firstDelay = Math.max(0, this.intervalNanos - (this.clock.getAsLong() - this.rotatedAt));
		return executor.scheduleAtFixedRate(() -> {
			rotate.run();
			this.rotatedAt = this.clock.getAsLong();
			this.rotations++;
		}, firstDelay, this.intervalNanos, TimeUnit.NANOSECONDS);
	}

	/** @return how often the keys were replaced */
	long rotations() {
		return this.rotations;
	}

}
