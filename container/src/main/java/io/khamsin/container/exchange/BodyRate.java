package io.khamsin.container.exchange;

import java.util.concurrent.TimeUnit;

import io.khamsin.container.engine.HttpSettings;

/**
 * The arrival rate of one request body against {@code khamsin.min-request-body-rate}: the bytes received since the
 * body started, averaged over the time since, once {@link HttpSettings#MIN_RATE_GRACE} is over. A body that sends a
 * byte now and then, never stalling long enough for the body-read timeout (a slow-POST attack), falls below it. Time
 * the application kept the body paused is the application's, not the client's: the measure starts again when the
 * owner sees the body paused. Used on one event loop.
 */
public final class BodyRate {

	/** How often the rate is looked at once the grace period is over. */
	public static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long GRACE_NANOS = HttpSettings.MIN_RATE_GRACE.toNanos();

	private final long minBytesPerSecond;

	private long start;

	private long bytes;

	private BodyRate(long minBytesPerSecond) {
		this.minBytesPerSecond = minBytesPerSecond;
	}

	/**
	 * The rate of a body that starts now, or {@code null} when the settings ask for no minimum.
	 * @param settings the server's settings
	 * @return the rate, or {@code null}
	 */
	public static BodyRate start(HttpSettings settings) {
		if (settings.minRequestBodyRate() <= 0) {
			return null;
		}
		BodyRate rate = new BodyRate(settings.minRequestBodyRate());
		rate.restart(System.nanoTime());
		return rate;
	}

	/**
	 * Measure from now, as if the body started now: the application paused it.
	 * @param now {@link System#nanoTime()}
	 */
	public void restart(long now) {
		this.start = now;
		this.bytes = 0;
	}

	/**
	 * Bytes of the body arrived.
	 * @param count how many
	 */
	public void received(long count) {
		this.bytes += count;
	}

	/**
	 * @param now {@link System#nanoTime()}
	 * @return whether the grace period is over and the body arrived slower than the minimum
	 */
	public boolean tooSlow(long now) {
		long elapsed = now - this.start;
		return elapsed >= GRACE_NANOS && this.bytes * 1e9 < this.minBytesPerSecond * (double) elapsed;
	}

	/**
	 * @param now {@link System#nanoTime()}
	 * @return when the rate is next worth looking at, as a {@link System#nanoTime()}
	 */
	public long nextCheck(long now) {
		return Math.max(this.start + GRACE_NANOS, now + CHECK_NANOS);
	}

	/** @return the minimum, in bytes per second */
	public long minBytesPerSecond() {
		return this.minBytesPerSecond;
	}

}
