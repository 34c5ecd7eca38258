package io.khamsin.container.http1;

import java.util.ArrayDeque;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The request decoders of one reactor, lent to its connections while they receive: Netty's decoder holds about
 * 400 B (its line buffer, its parsers and their state) that a keep-alive connection needs only while bytes of a
 * request are arriving, so an idle connection holds none. A connection borrows a decoder when bytes arrive and gives
 * it back at the end of the read in which a request ended with nothing left over; as a reactor serves one connection
 * at a time, a handful of decoders serve all of its connections. Used on the reactor's thread only.
 */
final class RequestDecoderPool {

	/** Decoders kept for reuse; more are left to the garbage collector when given back. */
	static final int MAX_IDLE = 64;

	private final HttpDecoderConfig config;

	private final ArrayDeque<LentDecoder> idle = new ArrayDeque<>();

	/**
	 * Create a pool.
	 * @param config the configuration of every decoder it creates; not changed afterwards
	 */
	RequestDecoderPool(HttpDecoderConfig config) {
		this.config = config;
	}

	LentDecoder lend(Http1ServerCodec codec, Http1ServerCodec.Listener listener) {
		LentDecoder decoder = this.idle.pollLast();
		if (decoder == null) {
			decoder = new LentDecoder(this.config);
		}
		decoder.lendTo(codec, listener);
		return decoder;
	}

	/**
	 * Take a decoder back; it must be between requests ({@link LentDecoder#isBetweenRequests()}) with its read
	 * complete.
	 */
	void giveBack(LentDecoder decoder) {
		decoder.lendTo(null, null);
		if (this.idle.size() < MAX_IDLE) {
			this.idle.addLast(decoder);
		}
	}

	int idle() {
		return this.idle.size();
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
			else if (buffer.readerIndex() != readerIndex) {
				this.betweenRequests = false;
			}
		}

		@Override
		protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
			super.handleTransferEncodingChunkedWithContentLength(message);
			this.listener.closeAfterResponse();
		}

	}

}
