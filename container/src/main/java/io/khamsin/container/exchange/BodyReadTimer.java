package io.khamsin.container.exchange;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.EventExecutor;

/**
 * The stall timeout of a request body on a stream ({@code khamsin.body-read-timeout}), made only for a request with a
 * body: it fires when the client has sent nothing for the timeout, unless the application is the slow one (the body
 * is paused because it asks for no more). One task is scheduled at a time; a deadline that moves is only written to a
 * field. Used on the stream's event loop alone.
 */
public final class BodyReadTimer implements Runnable {

	private final EventExecutor executor;

	private final long timeoutNanos;

	private final Stall owner;

	private long deadline;

	private ScheduledFuture<?> future;

	private boolean stopped;

	/**
	 * Start the timer.
	 * @param executor the stream's event loop
	 * @param timeout how long the body may stall
	 * @param owner the stream, told of a stall
	 */
	public BodyReadTimer(EventExecutor executor, Duration timeout, Stall owner) {
		this.executor = executor;
		this.timeoutNanos = timeout.toNanos();
		this.owner = owner;
		this.deadline = System.nanoTime() + this.timeoutNanos;
		this.future = schedule(this.timeoutNanos);
	}

	private ScheduledFuture<?> schedule(long delayNanos) {
		return this.executor.schedule(this, delayNanos, TimeUnit.NANOSECONDS);
	}

	/** Body bytes arrived: the deadline moves. */
	public void received() {
		this.deadline = System.nanoTime() + this.timeoutNanos;
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
		long left = this.deadline - System.nanoTime();
		if (left > 0 || (exchange != null && exchange.isBodyPaused())) {
			// The application is slow to read, not the client to send: wait for it.
			this.future = schedule((left > 0) ? left : this.timeoutNanos);
			return;
		}
		this.stopped = true;
		this.owner.bodyStalled(exchange);
	}

	/** The stream whose request body the timer watches. */
	public interface Stall {

		/** @return the exchange that waits for the body, or {@code null} once the response is out */
		HttpExchange waitingExchange();

		/**
		 * The client sent nothing of the body for the timeout; the timer has stopped.
		 * @param exchange the exchange that waited for it, or {@code null} when only the rest of a request whose
		 * response is out stalled
		 */
		void bodyStalled(HttpExchange exchange);

	}

}
