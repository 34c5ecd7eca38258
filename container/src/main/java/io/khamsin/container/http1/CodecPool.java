package io.khamsin.container.http1;

import java.util.ArrayDeque;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The HTTP/1.1 request decoders and response encoders of one reactor, lent to its connections while a request
 * arrives or a response leaves. Netty's decoder holds about 400 B (its line buffer, its parsers and their state) and
 * its encoder about 120 B that a keep-alive connection needs only then, so an idle connection holds neither. A
 * connection borrows a decoder when bytes arrive and gives it back at the end of the read in which a request ended
 * with nothing left over; it borrows an encoder for a response and gives it back once the response's last part is
 * encoded. As a reactor serves one connection at a time, a handful of each serve all of its connections, and
 * nothing is allocated per request. Used on the reactor's thread only.
 */
final class CodecPool {

	/** Decoders, and encoders, kept for reuse; a decoder given back beyond them is freed, an encoder dropped. */
	static final int MAX_IDLE = 64;

	private final HttpDecoderConfig config;

	private final ArrayDeque<LentDecoder> decoders = new ArrayDeque<>();

	private final ArrayDeque<LentEncoder> encoders = new ArrayDeque<>();

	/**
	 * Create a pool.
	 * @param config the configuration of every decoder it creates; not changed afterwards
	 */
	CodecPool(HttpDecoderConfig config) {
		this.config = config;
	}

	LentDecoder lendDecoder(Http1ServerCodec codec, Http1ServerCodec.Listener listener) {
		LentDecoder decoder = this.decoders.pollLast();
		if (decoder == null) {
			decoder = new LentDecoder(this.config);
		}
		decoder.lendTo(codec, listener);
		return decoder;
	}

	/**
	 * Take a decoder back; it must be between requests ({@link LentDecoder#isBetweenRequests()}) with its read
	 * complete.
	 * @param decoder the decoder
	 * @param ctx the context of the codec that gives it back, to free the decoder with when the pool is full
	 */
	void giveBack(LentDecoder decoder, ChannelHandlerContext ctx) throws Exception {
		decoder.lendTo(null, null);
		if (this.decoders.size() < MAX_IDLE) {
			this.decoders.addLast(decoder);
		}
		else {
			decoder.discard(ctx);
		}
	}

	LentEncoder lendEncoder(Http1ServerCodec codec) {
		LentEncoder encoder = this.encoders.pollLast();
		if (encoder == null) {
			encoder = new LentEncoder();
		}
		encoder.codec = codec;
		return encoder;
	}

	/**
	 * Take an encoder back; it must be between responses ({@link LentEncoder#isBetweenResponses()}).
	 */
	void giveBack(LentEncoder encoder) {
		encoder.codec = null;
		if (this.encoders.size() < MAX_IDLE) {
			this.encoders.addLast(encoder);
		}
	}

	int idleDecoders() {
		return this.decoders.size();
	}

	int idleEncoders() {
		return this.encoders.size();
	}

	/**
	 * Netty's request decoder, telling the connection that borrowed it of every read and every request, and whether
	 * it stands between two requests with nothing buffered: the only state in which another connection may use it.
	 */
	static final class LentDecoder extends HttpRequestDecoder {

		private Http1ServerCodec codec;

		private Http1ServerCodec.Listener listener;

		private boolean betweenRequests = true;

		LentDecoder(HttpDecoderConfig config) {
			super(config);
		}

		void lendTo(Http1ServerCodec codec, Http1ServerCodec.Listener listener) {
			this.codec = codec;
			this.listener = listener;
		}

		/**
		 * Whether the last request decoded ended well and no byte has arrived since, so that the decoder is in its
		 * initial state. A request that failed to decode leaves the decoder discarding until the connection closes.
		 */
		boolean isBetweenRequests() {
			return this.betweenRequests && actualReadableBytes() == 0;
		}

		/**
		 * Free what the decoder keeps for good (its parser's scratch space), which Netty frees when the decoder
		 * leaves a pipeline: called when no connection will use it again.
		 * @param ctx the context of the codec that used it last; the decoder must hold no bytes
		 */
		void discard(ChannelHandlerContext ctx) throws Exception {
			handlerRemoved(ctx);
		}

		@Override
		protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
			if (buffer.isReadable()) {
				this.listener.bytesReceived();
			}
			int before = out.size();
			int readerIndex = buffer.readerIndex();
			super.decode(ctx, buffer, out);
			int after = out.size();
			for (int i = before; i < after; i++) {
				if (out.get(i) instanceof HttpRequest request) {
					this.codec.decoded(request.method());
				}
			}
			if (after > before) {
				// Netty resets its state after every request that ends well, and only then.
				this.betweenRequests = out.get(after - 1) instanceof LastHttpContent last
						&& last.decoderResult().isSuccess();
			}
			else if (buffer.readerIndex() != readerIndex && !onlySkipped(buffer, readerIndex)) {
				// Part of a request is in the decoder's parser now.
				this.betweenRequests = false;
			}
		}

		/**
		 * Whether the bytes the decoder just consumed were all ones it skips before a request line (a client may
		 * send an empty line after a request: RFC 9112, section 2.2), which leave it in its initial state.
		 */
		private static boolean onlySkipped(ByteBuf buffer, int from) {
			for (int i = from; i < buffer.readerIndex(); i++) {
				byte b = buffer.getByte(i);
				if (!Character.isISOControl(b) && !Character.isWhitespace(b)) {
					return false;
				}
			}
			return true;
		}

		@Override
		protected HttpMessage createMessage(String[] initialLine) throws Exception {
			// HTTP-name is case-sensitive (RFC 9112, section 2.3), but Netty reads "http/1.1" as HTTP/1.1: a proxy in
			// front that refuses such a request line must not see khamsin serve it.
			if (!initialLine[2].startsWith("HTTP/")) {
				throw new IllegalArgumentException("Invalid HTTP version in the request line: " + initialLine[2]);
			}
			return super.createMessage(initialLine);
		}

		@Override
		protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
			super.handleTransferEncodingChunkedWithContentLength(message);
			this.listener.closeAfterResponse();
		}

	}

	/**
	 * Netty's response encoder, which encodes a response to a HEAD request without its body, and knows whether it
	 * stands between two responses: the only state in which another connection may use it.
	 */
	static final class LentEncoder extends HttpResponseEncoder {

		private Http1ServerCodec codec;

		private boolean betweenResponses = true;

		/**
		 * Whether the last message encoded ended a response (Netty's encoder is back in its initial state then, and
		 * only then) and none failed to encode.
		 */
		boolean isBetweenResponses() {
			return this.betweenResponses;
		}

		@Override
		protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
			// Decided here rather than around the write: the write passes the bytes on, and whatever that sets off
			// happens after the encoder's state for this message is settled.
			boolean between = this.betweenResponses;
			this.betweenResponses = false;
			super.encode(ctx, msg, out);
			this.betweenResponses = msg instanceof LastHttpContent || (between && !(msg instanceof HttpMessage));
		}

		@Override
		protected boolean isContentAlwaysEmpty(HttpResponse response) {
			if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
				// An interim response answers no request of its own.
				return super.isContentAlwaysEmpty(response);
			}
			HttpMethod method = this.codec.answered();
			return HttpMethod.HEAD.equals(method) || super.isContentAlwaysEmpty(response);
		}

	}

}
