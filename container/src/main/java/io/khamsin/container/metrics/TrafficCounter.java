package io.khamsin.container.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;

/**
 * Counts the bytes read from and written to the connections of one reactor. Shared by the reactor's
 * connections, which all run on its thread, so the counts have a single writer.
 */
@Sharable
public final class TrafficCounter extends ChannelDuplexHandler {

	private final ReactorMetrics reactor;

	TrafficCounter(ReactorMetrics reactor) {
		this.reactor = reactor;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (msg instanceof ByteBuf bytes) {
			this.reactor.add(ReactorMetrics.BYTES_RECEIVED, bytes.readableBytes());
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		long bytes = (msg instanceof ByteBuf buf) ? buf.readableBytes()
				: (msg instanceof ByteBufHolder holder) ? holder.content().readableBytes()
				: (msg instanceof FileRegion region) ? region.count() - region.transferred() : 0;
		if (bytes > 0) {
			this.reactor.add(ReactorMetrics.BYTES_SENT, bytes);
		}
		ctx.write(msg, promise);
	}

}
