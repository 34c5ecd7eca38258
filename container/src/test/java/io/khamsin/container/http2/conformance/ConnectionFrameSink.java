package io.khamsin.container.http2.conformance;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of an HTTP/2 connection: it takes the connection-level frames that Http2FrameCodec passes on
 * after answering them itself (SETTINGS, PING, WINDOW_UPDATE on stream 0, GOAWAY) and releases them, and the
 * connection errors the codec has already answered. Without it
 * each one reaches the pipeline's tail, which logs it: measured here, a PING flood then ran at 17,000 frames a
 * second, logging-bound, instead of ending in a few hundred milliseconds.
 */
@ChannelHandler.Sharable
final class ConnectionFrameSink extends ChannelInboundHandlerAdapter {

	static final ConnectionFrameSink INSTANCE = new ConnectionFrameSink();

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (msg instanceof Http2Frame) {
			ReferenceCountUtil.release(msg);
			return;
		}
		ctx.fireChannelRead(msg);
	}

	/**
	 * A connection error reaches here after Http2FrameCodec has answered it with GOAWAY and started closing the
	 * connection; left to the pipeline's tail, each one would be logged as a WARN with its stack trace, which lets a
	 * peer fill the log.
	 */
	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) == null) {
			ctx.fireExceptionCaught(cause);
		}
	}

}
