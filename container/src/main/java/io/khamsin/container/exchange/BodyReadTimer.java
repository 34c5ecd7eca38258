package io.khamsin.container.exchange;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.EventExecutor;

/**
 * The stall timeout of a request body on a stream ({@code khamsin.body-read-timeout}) and its minimum rate
 * ({@code khamsin.min-request-body-rate}, a {@link BodyRate}), made only for a request with a body: it fires when the
 * client has sent nothing for the timeout, or too little since the body started, unless the application is the slow
 * one (the body is paused because it asks for no more). One task is scheduled at a time; a deadline that moves is
 * only written to a field. Used on the stream's event loop alone.
 */
public final class BodyReadTimer implements Runnable {

	private final EventExecutor executor;

	private final long timeoutNanos;

	private final Stall owner;

	private final BodyRate rate;

	private long deadline;

	private long rateCheck = Long.MAX_VALUE;

	private ScheduledFuture<?> future;

	private boolean stopped;

	/**
	 * Start the timer.
	 * @param executor the stream's event loop
	 * @param timeout how long the body may stall
	 * @param rate the body's minimum rate, or {@code null} for none
	 * @param owner the stream, told of a stall
	 */
	public BodyReadTimer(EventExecutor executor, Duration timeout, BodyRate rate, Stall owner) {
		this.executor = executor;
		this.timeoutNanos = timeout.toNanos();
		this.rate = rate;
		this.owner = owner;
		long now = System.nanoTime();
		this.deadline = now + this.timeoutNanos;
		if (rate != null) {
			this.rateCheck = rate.nextCheck(now);
		}
		this.future = schedule(Math.min(this.deadline, this.rateCheck) - now);
	}

	private ScheduledFuture<?> schedule(long delayNanos) {
		return this.executor.schedule(this, delayNanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Body bytes arrived: the deadline moves.
	 * @param count how many
	 */
	public void received(long count) {
		this.deadline = System.nanoTime() + this.timeoutNanos;
		if (this.rate != null) {
			this.rate.received(count);
		}
	}

	/** The body ended, or the stream: the timer never fires. */
	public void stop() {
		this.stopped = true;
		this.future.cancel(false);
	}

	@Override
	public void run() {
		if (this.stopped) {
			return;
		}
		HttpExchange exchange = this.owner.waitingExchange();
		long now = System.nanoTime();
		boolean paused = exchange != null && exchange.isBodyPaused();
		boolean tooSlow = false;
		if (this.rate != null && now - this.rateCheck >= 0) {
			if (paused) {
				this.rate.restart(now);
			}
			else {
				tooSlow = this.rate.tooSlow(now);
			}
			this.rateCheck = this.rate.nextCheck(now);
		}
		long left = this.deadline - now;
		if (!tooSlow && (left > 0 || paused)) {
			// The application is slow to read, not the client to send: wait for it.
			long next = (left > 0) ? Math.min(left, this.rateCheck - now) : this.timeoutNanos;
			this.future = schedule(next);
			return;
		}
		this.stopped = true;
		this.owner.bodyStalled(exchange, tooSlow);
	}

	/** The stream whose request body the timer watches. */
	public interface Stall {

		/** @return the exchange that waits for the body, or {@code null} once the response is out */
		HttpExchange waitingExchange();

		/**
		 * The client sent nothing of the body for the timeout, or too little since it started; the timer has
		 * stopped.
		 * @param exchange the exchange that waited for it, or {@code null} when only the rest of a request whose
		 * response is out stalled
		 * @param tooSlow whether the body arrived slower than its minimum rate, rather than stalled
		 */
		void bodyStalled(HttpExchange exchange, boolean tooSlow);

	}

}
