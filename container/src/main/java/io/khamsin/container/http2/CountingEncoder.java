package io.khamsin.container.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;

/**
 * The connection's encoder, telling its {@link FrameRules} of the DATA the server sends: the client's WINDOW_UPDATE
 * frames are allowed in proportion to it.
 */
final class CountingEncoder extends DecoratingHttp2ConnectionEncoder {

	private final FrameRules rules;

	CountingEncoder(Http2ConnectionEncoder delegate, FrameRules rules) {
		super(delegate);
		this.rules = rules;
	}

	@Override
	public ChannelFuture writeData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
			boolean endStream, ChannelPromise promise) {
		this.rules.dataSent(data.readableBytes());
		return super.writeData(ctx, streamId, data, padding, endStream, promise);
	}

}
