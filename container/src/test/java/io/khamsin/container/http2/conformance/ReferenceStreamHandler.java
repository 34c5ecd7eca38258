package io.khamsin.container.http2.conformance;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * The reference server's answer on each stream, once the request has ended: 200 with a small body for GET, the
 * head alone for HEAD, and the request's body echoed for any other method.
 */
final class ReferenceStreamHandler extends ChannelInboundHandlerAdapter {

	static final byte[] BODY = "khamsin h2 conformance reference\n".getBytes(StandardCharsets.US_ASCII);

	private String method;

	private ByteBuf received;

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		try {
			if (msg instanceof Http2HeadersFrame headers) {
				if (this.method == null && headers.headers().method() != null) {
					this.method = headers.headers().method().toString();
				}
				if (headers.isEndStream()) {
					respond(ctx);
				}
			}
			else if (msg instanceof Http2DataFrame data) {
				if (this.received == null) {
					this.received = ctx.alloc().buffer();
				}
				this.received.writeBytes(data.content());
				if (data.isEndStream()) {
					respond(ctx);
				}
			}
		}
		finally {
			ReferenceCountUtil.release(msg);
		}
	}

	private void respond(ChannelHandlerContext ctx) {
		Http2Headers head = new DefaultHttp2Headers().status("200");
		if ("HEAD".equals(this.method)) {
			ctx.writeAndFlush(new DefaultHttp2HeadersFrame(head.setInt("content-length", BODY.length), true));
			return;
		}
		ByteBuf body = ("GET".equals(this.method) || this.received == null) ? Unpooled.wrappedBuffer(BODY)
				: this.received.retainedDuplicate();
		ctx.write(new DefaultHttp2HeadersFrame(head.setInt("content-length", body.readableBytes())));
		ctx.writeAndFlush(new DefaultHttp2DataFrame(body, true));
	}

	/**
	 * Http2FrameCodec does not reset a stream on an inbound stream error: Http2MultiplexHandler hands the error (an
	 * Http2Exception.StreamException) to the stream's channel, whose handler must send the RST_STREAM with the
	 * error's code. Closing the channel instead would
	 * reset the stream with CANCEL, which is not the code RFC 9113 asks for.
	 */
	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		Http2Error error = (cause instanceof Http2Exception streamError) ? streamError.error()
				: Http2Error.INTERNAL_ERROR;
		ctx.writeAndFlush(new DefaultHttp2ResetFrame(error)).addListener(ChannelFutureListener.CLOSE);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		release();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		release();
	}

	private void release() {
		if (this.received != null) {
			this.received.release();
			this.received = null;
		}
	}

}
