package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;

import io.khamsin.container.FixedResponse;

/**
 * The configured {@link FixedResponse}s, each encoded once as HTTP/1.1 bytes. Answering one takes a lookup by
 * path, one pooled buffer and a copy of about a hundred bytes: no header objects, no encoder.
 */
final class FixedResponses {

	private static final FixedResponses NONE = new FixedResponses(Map.of());

	private static final byte[] DATE = ascii("Date: ");

	private static final byte[] CRLF = ascii("\r\n");

	private static final byte[] CLOSE = ascii("Connection: close\r\n\r\n");

	private static final byte[] KEEP_ALIVE = ascii("Connection: keep-alive\r\n\r\n");

	private final Map<String, Entry> byPath;

	private FixedResponses(Map<String, Entry> byPath) {
		this.byPath = byPath;
	}

	/**
	 * Encode the configured fixed responses.
	 * @param fixedResponses the fixed responses
	 * @param serverHeader the {@code Server} header, or {@code null}
	 * @return the table
	 */
	static FixedResponses encode(List<FixedResponse> fixedResponses, String serverHeader) {
		if (fixedResponses.isEmpty()) {
			return NONE;
		}
		Map<String, Entry> byPath = new HashMap<>();
		for (FixedResponse fixed : fixedResponses) {
			byPath.put(fixed.path(), new Entry(head(fixed, serverHeader), fixed.body(), fixed.status(),
					(fixed.status() != 204 && fixed.status() != 304) ? Integer.toString(fixed.body().length) : null));
		}
		return new FixedResponses(byPath);
	}

	private static byte[] head(FixedResponse fixed, String serverHeader) {
		StringBuilder head = new StringBuilder(128);
		head.append("HTTP/1.1 ").append(HttpResponseStatus.valueOf(fixed.status())).append("\r\n");
		if (fixed.contentType() != null) {
			head.append("Content-Type: ").append(fixed.contentType()).append("\r\n");
		}
		if (fixed.status() != 204 && fixed.status() != 304) {
			head.append("Content-Length: ").append(fixed.body().length).append("\r\n");
		}
		if (serverHeader != null) {
			head.append("Server: ").append(serverHeader).append("\r\n");
		}
		fixed.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		return ascii(head.toString());
	}

	/**
	 * The fixed response for a request, if there is one: a {@code GET} or {@code HEAD} of a configured path, in
	 * origin form, without a body.
	 * @param request the request
	 * @param hasBody whether the request announced a body
	 * @return the entry, or {@code null} when the application answers
	 */
	Entry lookup(HttpRequest request, boolean hasBody) {
		if (this.byPath.isEmpty() || hasBody) {
			return null;
		}
		HttpMethod method = request.method();
		if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
			return null;
		}
		String uri = request.uri();
		int query = uri.indexOf('?');
		return this.byPath.get((query < 0) ? uri : uri.substring(0, query));
	}

	private static byte[] ascii(String value) {
		return value.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * One encoded fixed response: the head up to the {@code Date} header, and the body.
	 */
	static final class Entry {

		private final byte[] head;

		private final byte[] body;

		private final int status;

		private final String contentLength;

		Entry(byte[] head, byte[] body, int status, String contentLength) {
			this.head = head;
			this.body = body;
			this.status = status;
			this.contentLength = contentLength;
		}

		/** @return the status, for the figures */
		int status() {
			return this.status;
		}

		/** @return the {@code Content-Length} header's value, or {@code null} for a status without a body */
		String contentLength() {
			return this.contentLength;
		}

		/**
		 * Write the whole response past the encoder, without flushing it.
		 * @param encoderCtx the context of the connection's response encoder
		 * @param head whether to leave the body out ({@code HEAD})
		 * @param close whether the connection closes after it ({@code Connection: close})
		 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
		 * @param promise the promise of the write, a void one when nothing listens for its end
		 * @return the future of the write
		 */
		ChannelFuture write(ChannelHandlerContext encoderCtx, boolean head, boolean close, boolean http10KeepAlive,
				ChannelPromise promise) {
			return encoderCtx.write(encode(encoderCtx.alloc(), head, close, http10KeepAlive), promise);
		}

		/**
		 * The whole response in one buffer.
		 * @param alloc the connection's allocator
		 * @param head whether to leave the body out ({@code HEAD})
		 * @param close whether the connection closes after it ({@code Connection: close})
		 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
		 * @return the buffer
		 */
		private ByteBuf encode(ByteBufAllocator alloc, boolean head, boolean close, boolean http10KeepAlive) {
			AsciiString date = DateHeader.now();
			byte[] end = close ? CLOSE : (http10KeepAlive ? KEEP_ALIVE : CRLF);
			int bodyLength = head ? 0 : this.body.length;
			int size = this.head.length + DATE.length + date.length() + CRLF.length + end.length + bodyLength;
			ByteBuf buffer = alloc.directBuffer(size);
			buffer.writeBytes(this.head)
				.writeBytes(DATE)
				.writeBytes(date.array(), date.arrayOffset(), date.length())
				.writeBytes(CRLF)
				.writeBytes(end);
			if (bodyLength > 0) {
				buffer.writeBytes(this.body);
			}
			return buffer;
		}

		/** @return the status line and headers as text, for tests and logs */
		@Override
		public String toString() {
			return new String(this.head, StandardCharsets.US_ASCII);
		}

	}

}
