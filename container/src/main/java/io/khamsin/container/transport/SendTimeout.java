package io.khamsin.container.transport;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The send timeout of one TCP connection ({@code khamsin.send-timeout}): a connection whose flushed bytes the socket
 * has taken none of for that long is closed, and counted as {@link Guard#SEND_TIMEOUT}. That is a client that stopped
 * reading, or reads a byte now and then (a slow-read attack), while its response waits in the server's memory and
 * holds its connection, its file and whatever the application keeps for it. As nginx's {@code send_timeout}, the
 * time runs between two writes that moved something, not over the whole response, so a slow but steady client is
 * never cut off.
 * <p>
 * Nothing is timed while nothing waits to be written: a flush that leaves bytes behind arms one check, which runs at
 * a quarter of the timeout while they stay and is not scheduled again once they are gone. Progress is what the
 * connection's outbound buffer reports: the message being written changed, or more of it was written. The close is
 * abortive ({@code SO_LINGER} 0), so that the kernel drops what the client would not read instead of holding it.
 */
public final class SendTimeout extends ChannelDuplexHandler implements Runnable {

	/** The name of the handler in the pipeline. */
	public static final String NAME = "send-timeout";

	private static final Logger logger = LoggerFactory.getLogger(SendTimeout.class);

	private final long timeoutNanos;

	private final long checkNanos;

	private final GuardCounters guards;

	private Channel channel;

	private ScheduledFuture<?> check;

	private Object message;

	private long progress;

	private long progressedAt;

	SendTimeout(Duration timeout, GuardCounters guards) {
		this.timeoutNanos = timeout.toNanos();
		this.checkNanos = Math.max(1, this.timeoutNanos / 4);
		this.guards = guards;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.channel = ctx.channel();
	}

	@Override
	public void flush(ChannelHandlerContext ctx) {
		ctx.flush();
		if (this.check == null) {
			ChannelOutboundBuffer buffer = this.channel.unsafe().outboundBuffer();
			if (buffer != null && buffer.current() != null) {
				observe(buffer);
				this.check = ctx.executor().schedule(this, this.checkNanos, TimeUnit.NANOSECONDS);
			}
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		if (this.check != null) {
			this.check.cancel(false);
			this.check = null;
		}
		ctx.fireChannelInactive();
	}

	/** A check, on the connection's event loop. */
	@Override
	public void run() {
		this.check = null;
		ChannelOutboundBuffer buffer = this.channel.unsafe().outboundBuffer();
		if (!this.channel.isActive() || buffer == null || buffer.current() == null) {
			return;
		}
		long now = System.nanoTime();
		if (buffer.current() != this.message || buffer.currentProgress() != this.progress) {
			observe(buffer);
		}
		else if (now - this.progressedAt >= this.timeoutNanos) {
			this.guards.increment(Guard.SEND_TIMEOUT);
			logger.debug("{} took none of its response for khamsin.send-timeout ({}): closing", this.channel,
					Duration.ofNanos(this.timeoutNanos));
			this.channel.config().setOption(ChannelOption.SO_LINGER, 0);
			this.channel.close();
			return;
		}
		this.check = this.channel.eventLoop().schedule(this, this.checkNanos, TimeUnit.NANOSECONDS);
	}

	private void observe(ChannelOutboundBuffer buffer) {
		this.message = buffer.current();
		this.progress = buffer.currentProgress();
		this.progressedAt = System.nanoTime();
	}

}
