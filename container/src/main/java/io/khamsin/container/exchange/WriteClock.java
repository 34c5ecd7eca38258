package io.khamsin.container.exchange;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The clock of a response the handler wrote: it hears when the response's last write completes, the last byte handed
 * to the kernel, and records the request's latency then, or counts the request as ended without one when the write
 * failed. It keeps the reactor, the key of the tags and the start, and nothing of the exchange, which can be
 * collected while the write is on its way.
 */
final class WriteClock implements ChannelFutureListener {

	private final ReactorMetrics reactor;

	private final int latencyKey;

	private final long startNanos;

	WriteClock(ReactorMetrics reactor, int latencyKey, long startNanos) {
		this.reactor = reactor;
		this.latencyKey = latencyKey;
		this.startNanos = startNanos;
	}

	@Override
	public void operationComplete(ChannelFuture write) {
		stop(write, this.reactor, this.latencyKey, this.startNanos);
	}

	/**
	 * Record a request whose last write completed: its latency when the write succeeded, else only its end.
	 * @param write the completed write
	 * @param reactor the reactor's figures
	 * @param latencyKey the key of its tags
	 * @param startNanos {@link System#nanoTime()} at the first byte of its head
	 */
	static void stop(ChannelFuture write, ReactorMetrics reactor, int latencyKey, long startNanos) {
		if (write.isSuccess()) {
			reactor.requestEnded(latencyKey, startNanos);
		}
		else {
			reactor.requestEnded();
		}
	}

}
