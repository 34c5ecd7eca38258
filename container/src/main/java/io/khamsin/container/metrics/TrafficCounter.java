package io.khamsin.container.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;

/**
 * Counts the bytes written to the connections of one reactor, placed first in their pipelines so that it sees
 * them encoded. Shared by the reactor's connections, which all run on its thread, so the count has a single
 * writer. Reads are counted by the protocol's decoder, which saves every read a pipeline step.
 */
@Sharable
public final class TrafficCounter extends ChannelOutboundHandlerAdapter {

	private final ReactorMetrics reactor;

	TrafficCounter(ReactorMetrics reactor) {
		this.reactor = reactor;
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
