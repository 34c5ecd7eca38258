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

/**
 * Netty's HTTP/1.1 request decoder and response encoder, paired as {@code HttpServerCodec} pairs them but added to
 * the pipeline as two handlers (a combined handler costs each connection three more objects and every event one
 * more indirection), with two additions the connection handler needs: it hears of every read that reaches the decoder (so that a
 * request head sent slowly can be timed from its first byte), and of requests that carry both
 * {@code Transfer-Encoding: chunked} and {@code Content-Length} (answered, then the connection is closed:
 * RFC 9112, section 6.1).
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

	Http1ServerCodec(HttpDecoderConfig config, Listener listener) {
		this.decoder = new RequestDecoder(config, listener, this);
		this.encoder = new ResponseEncoder(this);
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

	private void decoded(HttpMethod method) {
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

	private HttpMethod answered() {
		HttpMethod method = this.oldestMethod;
		if (method != null) {
			this.oldestMethod = null;
			return method;
		}
		return (this.laterMethods != null) ? this.laterMethods.poll() : null;
	}

	static final class RequestDecoder extends HttpRequestDecoder {

		private final Listener listener;

		private final Http1ServerCodec codec;

		RequestDecoder(HttpDecoderConfig config, Listener listener, Http1ServerCodec codec) {
			super(config);
			this.listener = listener;
			this.codec = codec;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
			if (msg instanceof ByteBuf bytes) {
				this.listener.bytesRead(bytes.readableBytes());
			}
			super.channelRead(ctx, msg);
		}

		@Override
		protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
			if (buffer.isReadable()) {
				this.listener.bytesReceived();
			}
			int before = out.size();
			super.decode(ctx, buffer, out);
			for (int i = before; i < out.size(); i++) {
				if (out.get(i) instanceof HttpRequest request) {
					this.codec.decoded(request.method());
				}
			}
		}

		@Override
		protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
			super.handleTransferEncodingChunkedWithContentLength(message);
			this.listener.closeAfterResponse();
		}

	}

	static final class ResponseEncoder extends HttpResponseEncoder {

		private final Http1ServerCodec codec;

		ResponseEncoder(Http1ServerCodec codec) {
			this.codec = codec;
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
