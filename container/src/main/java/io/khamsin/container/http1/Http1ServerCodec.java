package io.khamsin.container.http1;

import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpMethod;

/**
 * Netty's HTTP/1.1 request decoder and response encoder, paired as {@code HttpServerCodec} pairs them but added to
 * the pipeline as two handlers (a combined handler costs each connection three more objects and every event one
 * more indirection), with two additions the connection handler needs: it hears of every read that reaches the decoder (so that a
 * request head sent slowly can be timed from its first byte), and of requests that carry both
 * {@code Transfer-Encoding: chunked} and {@code Content-Length} (answered, then the connection is closed:
 * RFC 9112, section 6.1). Netty's decoder and encoder are borrowed from the reactor's {@link CodecPool} only while
 * a request arrives or a response leaves.
 */
final class Http1ServerCodec {

	/**
	 * What the codec tells the connection handler.
	 */
	interface Listener {

		/** Bytes reached the decoder. */
		void bytesReceived();

		/**
		 * Bytes were read from the connection (counted here rather than by a handler of their own, which would cost
		 * every read one more pipeline step).
		 * @param bytes how many
		 */
		void bytesRead(int bytes);

		/** The request being decoded is ambiguously framed; close the connection after answering it. */
		void closeAfterResponse();

	}

	private final RequestDecoder decoder;

	private final ResponseEncoder encoder;

	// The methods of the requests decoded and not yet answered, oldest first: the oldest in a field, the requests
	// pipelined behind it in a queue created when first needed, so that a connection that never pipelined has none.
	private HttpMethod oldestMethod;

	private ArrayDeque<HttpMethod> laterMethods;

	Http1ServerCodec(CodecPool pool, Listener listener) {
		this.decoder = new RequestDecoder(pool, this, listener);
		this.encoder = new ResponseEncoder(pool, this);
	}

	RequestDecoder decoder() {
		return this.decoder;
	}

	ResponseEncoder encoder() {
		return this.encoder;
	}

	/**
	 * A response to the oldest request went out already encoded, past the encoder: forget that request's method.
	 */
	void responseWrittenDirectly() {
		answered();
	}

	void decoded(HttpMethod method) {
		if (this.oldestMethod == null && (this.laterMethods == null || this.laterMethods.isEmpty())) {
			this.oldestMethod = method;
		}
		else {
			if (this.laterMethods == null) {
				this.laterMethods = new ArrayDeque<>(4);
			}
			this.laterMethods.add(method);
		}
	}

	HttpMethod answered() {
		HttpMethod method = this.oldestMethod;
		if (method != null) {
			this.oldestMethod = null;
			return method;
		}
		return (this.laterMethods != null) ? this.laterMethods.poll() : null;
	}

	/**
	 * The decoder in a connection's pipeline: borrows a decoder from its reactor's pool when bytes arrive and gives
	 * it back at the end of a read that left it between requests, so that an idle keep-alive connection holds only
	 * this handler. A decoder that saw the connection close or leave HTTP/1.1 is not given back.
	 */
	static final class RequestDecoder extends ChannelInboundHandlerAdapter {

		private final CodecPool pool;

		private final Http1ServerCodec codec;

		private final Listener listener;

		private CodecPool.LentDecoder decoder;

		RequestDecoder(CodecPool pool, Http1ServerCodec codec, Listener listener) {
			this.pool = pool;
			this.codec = codec;
			this.listener = listener;
		}

		boolean holdsDecoder() {
			return this.decoder != null;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
			CodecPool.LentDecoder decoder = this.decoder;
			if (msg instanceof ByteBuf bytes) {
				this.listener.bytesRead(bytes.readableBytes());
				if (decoder == null) {
					decoder = this.pool.lendDecoder(this.codec, this.listener);
					this.decoder = decoder;
				}
			}
			if (decoder != null) {
				decoder.channelRead(ctx, msg);
			}
			else {
				ctx.fireChannelRead(msg);
			}
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
			CodecPool.LentDecoder decoder = this.decoder;
			if (decoder == null) {
				ctx.fireChannelReadComplete();
				return;
			}
			decoder.channelReadComplete(ctx);
			if (this.decoder == decoder && decoder.isBetweenRequests()) {
				this.decoder = null;
				this.pool.giveBack(decoder);
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) throws Exception {
			CodecPool.LentDecoder decoder = this.decoder;
			this.decoder = null;
			if (decoder != null) {
				decoder.channelInactive(ctx);
			}
			else {
				ctx.fireChannelInactive();
			}
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
			if (this.decoder != null) {
				this.decoder.userEventTriggered(ctx, event);
			}
			else {
				ctx.fireUserEventTriggered(event);
			}
		}

		@Override
		public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
			// Bytes the decoder still holds go to the handler that takes over the connection (a WebSocket decoder).
			CodecPool.LentDecoder decoder = this.decoder;
			this.decoder = null;
			if (decoder != null) {
				decoder.handlerRemoved(ctx);
			}
		}

	}

	/**
	 * The encoder in a connection's pipeline: borrows an encoder from its reactor's pool for each response and gives
	 * it back once the response's last part is encoded. An encoder that failed, or saw the connection leave
	 * HTTP/1.1 in the middle of a response, is not given back.
	 */
	static final class ResponseEncoder extends ChannelOutboundHandlerAdapter {

		private final CodecPool pool;

		private final Http1ServerCodec codec;

		private CodecPool.LentEncoder encoder;

		private boolean writing;

		ResponseEncoder(CodecPool pool, Http1ServerCodec codec) {
			this.pool = pool;
			this.codec = codec;
		}

		boolean holdsEncoder() {
			return this.encoder != null;
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
			CodecPool.LentEncoder encoder = this.encoder;
			if (encoder == null) {
				encoder = this.pool.lendEncoder(this.codec);
				this.encoder = encoder;
			}
			if (this.writing) {
				// A write from a listener of the write in progress: the outer write gives the encoder back.
				encoder.write(ctx, msg, promise);
				return;
			}
			this.writing = true;
			try {
				encoder.write(ctx, msg, promise);
			}
			finally {
				this.writing = false;
			}
			if (this.encoder == encoder && encoder.isBetweenResponses()) {
				this.encoder = null;
				this.pool.giveBack(encoder);
			}
		}

		@Override
		public void handlerRemoved(ChannelHandlerContext ctx) {
			this.encoder = null;
		}

	}

}
