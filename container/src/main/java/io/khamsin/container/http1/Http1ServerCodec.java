package io.khamsin.container.http1;

import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.util.ReferenceCountUtil;

/**
 * The HTTP/1.1 codec of a connection, one handler in its pipeline: Netty's request decoder and response encoder,
 * borrowed from the reactor's {@link CodecPool} only while a request arrives or a response leaves, so that an idle
 * keep-alive connection holds neither. It borrows a decoder when bytes arrive and gives it back at the end of a read
 * that left it between requests; it borrows an encoder for a response and gives it back once the response's last
 * part is encoded. A decoder or encoder that saw the connection close, fail or leave HTTP/1.1 in the middle of a
 * message is not given back.
 * <p>
 * Two additions the connection handler needs: it hears of every read that reaches the decoder (so that a request
 * head sent slowly can be timed from its first byte), and of requests that carry both
 * {@code Transfer-Encoding: chunked} and {@code Content-Length} (answered, then the connection is closed:
 * RFC 9112, section 6.1; Netty 4.2 refuses such a request with 400 itself unless
 * {@code -Dio.netty.handler.codec.http.rfc9112TransferEncoding=false}). One handler rather than a decoder and an encoder: each handler costs a connection a
 * 64-byte context, and Netty skips a handler for the events it does not handle either way.
 */
final class Http1ServerCodec extends ChannelDuplexHandler {

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

	private final CodecPool pool;

	private final Listener listener;

	private CodecPool.LentDecoder decoder;

	private CodecPool.LentEncoder encoder;

	private boolean writing;

	// The methods of the requests decoded and not yet answered, oldest first: the oldest in a field, the requests
	// pipelined behind it in a queue created when first needed, so that a connection that never pipelined has none.
	private HttpMethod oldestMethod;

	private ArrayDeque<HttpMethod> laterMethods;

	Http1ServerCodec(CodecPool pool, Listener listener) {
		this.pool = pool;
		this.listener = listener;
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

	boolean holdsDecoder() {
		return this.decoder != null;
	}

	boolean holdsEncoder() {
		return this.encoder != null;
	}

	// Inbound: the decoder

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
		CodecPool.LentDecoder decoder = this.decoder;
		if (msg instanceof ByteBuf bytes) {
			this.listener.bytesRead(bytes.readableBytes());
			if (decoder == null) {
				decoder = this.pool.lendDecoder(this, this.listener);
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
			this.pool.giveBack(decoder, ctx);
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		CodecPool.LentDecoder decoder = this.decoder;
		this.decoder = null;
		if (decoder == null) {
			ctx.fireChannelInactive();
			return;
		}
		try {
			decoder.channelInactive(ctx);
		}
		finally {
			// A decoder that saw its connection close mid-request is not lent again.
			decoder.discard(ctx);
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
		this.encoder = null;
		// Bytes the decoder still holds go to the handler that takes over the connection (a WebSocket decoder).
		CodecPool.LentDecoder decoder = this.decoder;
		this.decoder = null;
		if (decoder != null) {
			decoder.handlerRemoved(ctx);
		}
	}

	// Outbound: the encoder

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
		CodecPool.LentEncoder encoder = this.encoder;
		if (encoder == null) {
			encoder = this.pool.lendEncoder(this);
			this.encoder = encoder;
		}
		if (this.writing) {
			// Netty's encoder keeps what it encodes in one list until it has passed it on, so a write from a listener
			// of the write in progress would pass on the outer message's bytes again. Fail it rather than corrupt.
			ReferenceCountUtil.release(msg);
			promise.setFailure(new IllegalStateException(
					"A response was written from a listener of a write still in progress; write it later, on the event loop"));
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

}
