package io.khamsin.container.exchange;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.DefaultChannelPromise;

import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The clock of a response the exchange stage writes itself (a fixed response, the answer to {@code OPTIONS *}):
 * the promise of its write, which records the request's latency when the write completes, the last byte handed
 * to the kernel, and only then. It is its own listener and keeps its tags as one key, so that timing such a
 * response costs one object of 64 bytes, where the promise a write needs to be heard of at all takes 48.
 */
final class TimedPromise extends DefaultChannelPromise implements ChannelFutureListener {

	private final ReactorMetrics reactor;

	private final int latencyKey;

	private final long startNanos;

	TimedPromise(Channel channel, ReactorMetrics reactor, int latencyKey, long startNanos) {
		super(channel);
		this.reactor = reactor;
		this.latencyKey = latencyKey;
		this.startNanos = startNanos;
		addListener(this);
	}

	@Override
	public void operationComplete(ChannelFuture future) {
		WriteClock.stop(future, this.reactor, this.latencyKey, this.startNanos);
	}

}
