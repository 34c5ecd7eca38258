package io.khamsin.container.http1;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.BodyRate;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The timeouts of one HTTP/1.1 connection: idle between requests ({@code khamsin.idle-timeout}), the rest of a
 * request head once its first bytes arrived ({@code khamsin.header-read-timeout}), and a stall in a request body
 * ({@code khamsin.body-read-timeout}) or a body slower than {@code khamsin.min-request-body-rate} (a
 * {@link BodyRate}). An expired timeout is counted as its {@link Guard} and handed to the
 * connection ({@link Expiry}), which answers the request it cut short.
 * <p>
 * One task at a time is scheduled, and it never sleeps longer than the shortest timeout: a deadline that moves
 * (every request moves one) is only written to a field, and no task is cancelled until the connection closes.
 */
final class ConnectionTimer implements Runnable {

	// The category of the connection's handler: the one to turn on to follow what happens to a connection.
	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	private enum Timeout {
		NONE, IDLE, HEAD, BODY
	}

	private final Limits limits;

	private final Expiry connection;

	private final EventExecutor executor;

	private Timeout timeout = Timeout.NONE;

	private long deadline;

	private BodyRate rate;

	private long rateCheck;

	private ScheduledFuture<?> timerFuture;

	ConnectionTimer(Limits limits, Expiry connection, EventExecutor executor) {
		this.limits = limits;
		this.connection = connection;
		this.executor = executor;
	}

	/** Time the wait for the next request. */
	void timeIdle() {
		arm(Timeout.IDLE, this.limits.idleNanos);
	}

	/** Time the rest of a request head. */
	void timeHead() {
		arm(Timeout.HEAD, this.limits.headNanos);
	}

	/**
	 * Time the request body, and its rate, from now. The rate is first looked at when the connection's one task next
	 * runs (within the shortest timeout), not rescheduled for it: a body is rarely slow, and moving the task would
	 * cost every request with a body a cancelled and a new scheduled task.
	 */
	void timeBody() {
		arm(Timeout.BODY, this.limits.bodyNanos);
		if (this.limits.settings.minRequestBodyRate() > 0) {
			long now = System.nanoTime();
			if (this.rate == null) {
				this.rate = BodyRate.start(this.limits.settings);
			}
			else {
				this.rate.restart(now);
			}
			this.rateCheck = this.rate.nextCheck(now);
		}
	}

	/** @return whether the rest of a request head is being timed */
	boolean isTimingHead() {
		return this.timeout == Timeout.HEAD;
	}

	/**
	 * Part of the request body arrived: its timeout starts again, if it is being timed.
	 * @param last whether it was the end of the body, which stops the timeout
	 * @param bytes how many bytes of it arrived
	 */
	void bodyReceived(boolean last, int bytes) {
		if (this.timeout != Timeout.BODY) {
			return;
		}
		if (last) {
			disarm();
		}
		else {
			this.deadline = System.nanoTime() + this.limits.bodyNanos;
			if (this.rate != null) {
				this.rate.received(bytes);
			}
		}
	}

	/** Time nothing until the next {@code time...} call. */
	void disarm() {
		this.timeout = Timeout.NONE;
	}

	/** The connection closed: cancel the task. */
	void cancel() {
		this.timeout = Timeout.NONE;
		if (this.timerFuture != null) {
			this.timerFuture.cancel(false);
			this.timerFuture = null;
		}
	}

	private void arm(Timeout timeout, long timeoutNanos) {
		this.timeout = timeout;
		this.deadline = System.nanoTime() + timeoutNanos;
		if (this.timerFuture == null && !this.connection.isClosed()) {
			schedule(timeoutNanos);
		}
	}

	private void schedule(long delayNanos) {
		this.timerFuture = this.executor.schedule(this, Math.min(delayNanos, this.limits.checkIntervalNanos),
				TimeUnit.NANOSECONDS);
	}

	/** The connection's timer fired. */
	@Override
	public void run() {
		this.timerFuture = null;
		if (this.timeout == Timeout.NONE || this.connection.isClosed()) {
			return;
		}
		long now = System.nanoTime();
		long left = this.deadline - now;
		if (this.timeout == Timeout.BODY && this.rate != null && left > 0 && now - this.rateCheck >= 0) {
			if (this.connection.isBodyPaused()) {
				this.rate.restart(now);
			}
			else if (this.rate.tooSlow(now)) {
				this.limits.guards.increment(Guard.MIN_REQUEST_BODY_RATE);
				logger.debug("Request body arrived slower than khamsin.min-request-body-rate ({} bytes/s): 408",
						this.rate.minBytesPerSecond());
				this.connection.bodyTimedOut(true);
				return;
			}
			this.rateCheck = this.rate.nextCheck(now);
		}
		if (left > 0) {
			schedule((this.timeout == Timeout.BODY && this.rate != null) ? Math.min(left, this.rateCheck - now) : left);
			return;
		}
		switch (this.timeout) {
			case IDLE -> {
				this.limits.guards.increment(Guard.IDLE_TIMEOUT);
				this.connection.idleTimedOut();
			}
			case HEAD -> {
				this.limits.guards.increment(Guard.HEADER_READ_TIMEOUT);
				logger.debug("Request head not received within khamsin.header-read-timeout ({}): 408",
						this.limits.settings.headerReadTimeout());
				this.connection.headTimedOut();
			}
			case BODY -> {
				if (this.connection.isBodyPaused()) {
					timeBody();
					return;
				}
				this.limits.guards.increment(Guard.BODY_READ_TIMEOUT);
				logger.debug("Request body stalled for khamsin.body-read-timeout ({}): 408",
						this.limits.settings.bodyReadTimeout());
				this.connection.bodyTimedOut(false);
			}
			default -> {
			}
		}
	}

	/**
	 * What a timer asks of its connection. Every method is called on the connection's event loop.
	 */
	interface Expiry {

		/** @return whether the connection closed, after which nothing is timed */
		boolean isClosed();

		/** No request began within the idle timeout: close. */
		void idleTimedOut();

		/** The head of a request timed out: answer 408 and close. */
		void headTimedOut();

		/**
		 * Whether the application paused the request body: then the application is slow to read, not the client to
		 * send, and the body timeout waits for it.
		 * @return {@code true} if the body is paused
		 */
		boolean isBodyPaused();

		/**
		 * The body of a request timed out: fail the exchange, or close.
		 * @param tooSlow whether it arrived slower than its minimum rate, rather than stalled
		 */
		void bodyTimedOut(boolean tooSlow);

	}

	/**
	 * The timeouts of every connection of a server, in nanoseconds, and where their expiries are counted. Made once
	 * per server.
	 */
	static final class Limits {

		final HttpSettings settings;

		final GuardCounters guards;

		final long idleNanos;

		final long headNanos;

		final long bodyNanos;

		final long checkIntervalNanos;

		Limits(HttpSettings settings, GuardCounters guards) {
			this.settings = settings;
			this.guards = guards;
			this.idleNanos = settings.idleTimeout().toNanos();
			this.headNanos = settings.headerReadTimeout().toNanos();
			this.bodyNanos = settings.bodyReadTimeout().toNanos();
			this.checkIntervalNanos = Math.min(this.idleNanos, Math.min(this.headNanos, this.bodyNanos));
		}

	}

}
