package io.khamsin.container.http1;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * The timeouts of one HTTP/1.1 connection, as the base of its {@link Http1ServerHandler}: idle between requests
 * ({@code khamsin.idle-timeout}), the rest of a request head once its first bytes arrived
 * ({@code khamsin.header-read-timeout}), and a stall in a request body ({@code khamsin.body-read-timeout}). An
 * expired timeout is counted as its {@link Guard}; the handler answers the request it cut short.
 * <p>
 * The handler is its own timer task, so that timing a connection costs no object of its own. One task at a time is
 * scheduled, and it never sleeps longer than the shortest timeout: a deadline that moves (every request moves one)
 * is only written to a field, and no task is cancelled until the connection closes.
 */
abstract class ConnectionTimer extends Http1Connection implements Runnable {

	// The category of the connection's handler: the one to turn on to follow what happens to a connection.
	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	private enum Timeout {
		NONE, IDLE, HEAD, BODY
	}

	private Timeout timeout = Timeout.NONE;

	private long deadline;

	private final long checkIntervalNanos;

	private ScheduledFuture<?> timerFuture;

	ConnectionTimer(ServerContext context, ConnectionSecurity security, ReactorMetrics reactor) {
		super(context, security, reactor);
		this.checkIntervalNanos = Math.min(this.settings.idleTimeout().toNanos(),
				Math.min(this.settings.headerReadTimeout().toNanos(), this.settings.bodyReadTimeout().toNanos()));
	}

	@Override
	public void channelActive(ChannelHandlerContext ctx) {
		timeIdle();
		ctx.fireChannelActive();
	}

	/**
	 * The head of a request timed out: answer 408 and close.
	 */
	abstract void headTimedOut();

	/**
	 * Whether the application has paused the request body: then the application is slow to read, not the client
	 * to send, and the body timeout waits for it.
	 * @return {@code true} if the body is paused
	 */
	abstract boolean isBodyPaused();

	/**
	 * The body of a request timed out: fail the exchange, or close.
	 */
	abstract void bodyTimedOut();

	/** Time the wait for the next request. */
	final void timeIdle() {
		arm(Timeout.IDLE, this.settings.idleTimeout().toNanos());
	}

	/** Time the rest of a request head. */
	final void timeHead() {
		arm(Timeout.HEAD, this.settings.headerReadTimeout().toNanos());
	}

	/** Time the request body, from now. */
	final void timeBody() {
		arm(Timeout.BODY, this.settings.bodyReadTimeout().toNanos());
	}

	/**
	 * Whether the rest of a request head is being timed.
	 * @return {@code true} if it is
	 */
	final boolean isTimingHead() {
		return this.timeout == Timeout.HEAD;
	}

	/**
	 * Part of the request body arrived: its timeout starts again, if it is being timed.
	 * @param last whether it was the end of the body, which stops the timeout
	 */
	final void bodyReceived(boolean last) {
		if (this.timeout != Timeout.BODY) {
			return;
		}
		if (last) {
			disarm();
		}
		else {
			this.deadline = System.nanoTime() + this.settings.bodyReadTimeout().toNanos();
		}
	}

	/** Time nothing until the next {@code time...} call. */
	final void disarm() {
		this.timeout = Timeout.NONE;
	}

	/** The connection closed: cancel the task. */
	final void cancelTimer() {
		this.timeout = Timeout.NONE;
		if (this.timerFuture != null) {
			this.timerFuture.cancel(false);
			this.timerFuture = null;
		}
	}

	private void arm(Timeout timeout, long timeoutNanos) {
		this.timeout = timeout;
		this.deadline = System.nanoTime() + timeoutNanos;
		if (this.timerFuture == null && !this.closed) {
			schedule(timeoutNanos);
		}
	}

	private void schedule(long delayNanos) {
		this.timerFuture = this.ctx.executor().schedule(this, Math.min(delayNanos, this.checkIntervalNanos),
				TimeUnit.NANOSECONDS);
	}

	/** The connection's timer fired. */
	@Override
	public final void run() {
		this.timerFuture = null;
		if (this.timeout == Timeout.NONE || this.closed) {
			return;
		}
		long left = this.deadline - System.nanoTime();
		if (left > 0) {
			schedule(left);
			return;
		}
		switch (this.timeout) {
			case IDLE -> {
				this.context.guards().increment(Guard.IDLE_TIMEOUT);
				this.ctx.close();
			}
			case HEAD -> {
				this.context.guards().increment(Guard.HEADER_READ_TIMEOUT);
				logger.debug("Request head not received within khamsin.header-read-timeout ({}): 408",
						this.settings.headerReadTimeout());
				headTimedOut();
			}
			case BODY -> {
				if (isBodyPaused()) {
					timeBody();
					return;
				}
				this.context.guards().increment(Guard.BODY_READ_TIMEOUT);
				logger.debug("Request body stalled for khamsin.body-read-timeout ({}): 408",
						this.settings.bodyReadTimeout());
				bodyTimedOut();
			}
			default -> {
			}
		}
	}

}
