package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;

import io.khamsin.container.cache.CachedHead;
import io.khamsin.container.cache.HeadEncoding;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.engine.DateHeader;

/**
 * Writes page-cache answers on an HTTP/1.1 connection as bytes, past the response encoder as the fixed responses
 * are: the head encoded once per representation ({@link #HEAD}: status line and fields up to, not including,
 * {@code Date}; RFC 9112, sections 4 and 6), then {@code Date}, {@code Age} and the connection's header written per
 * response, then the body. A small body is copied behind the head into one buffer; a larger one is written as a
 * duplicate of the entry's direct buffer, which the socket reads from without a copy on the heap.
 */
public final class Http1HitWriter {

	/** Bodies up to this size go out in the head's buffer: one write, and a copy cheaper than a second buffer. */
	static final int COPY_THRESHOLD = 2048;

	private static final byte[] DATE = ascii("Date: ");

	private static final byte[] AGE = ascii("\r\nAge: ");

	private static final byte[] CRLF = ascii("\r\n");

	private static final byte[] CLOSE = ascii("Connection: close\r\n\r\n");

	private static final byte[] KEEP_ALIVE = ascii("Connection: keep-alive\r\n\r\n");

	/** The status line and header fields of a cached head, {@code Content-Length} included, ending before {@code Date}. */
	static final HeadEncoding<byte[]> HEAD = new HeadEncoding<>() {

		@Override
		protected byte[] encode(CachedHead head) {
			StringBuilder bytes = new StringBuilder(256);
			bytes.append("HTTP/1.1 ").append(HttpResponseStatus.valueOf(head.status())).append("\r\n");
			head.forEachHeader((name, value) -> bytes.append(name).append(": ").append(value).append("\r\n"));
			if (head.contentLength() >= 0) {
				bytes.append("Content-Length: ").append(head.contentLength()).append("\r\n");
			}
			return bytes.toString().getBytes(StandardCharsets.ISO_8859_1);
		}

	};

	private Http1HitWriter() {
	}

	/**
	 * Write a hit, without flushing it; the hit's body now belongs to the write.
	 * @param encoderCtx the context of the connection's response encoder (the bytes pass below it)
	 * @param hit the hit
	 * @param close whether the connection closes after it ({@code Connection: close})
	 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
	 * @param promise the promise of the last write, a void one when nothing listens for its end
	 * @return the future of the last write
	 */
	public static ChannelFuture write(ChannelHandlerContext encoderCtx, Lookup.Hit hit, boolean close,
			boolean http10KeepAlive, ChannelPromise promise) {
		ByteBuf body = hit.body();
		boolean copy = body == null || body.readableBytes() <= COPY_THRESHOLD;
		ByteBuf head;
		try {
			head = encode(encoderCtx.alloc(), hit.representation().head().encoded(HEAD), hit.ageSeconds(), close,
					http10KeepAlive, copy ? body : null);
		}
		catch (RuntimeException ex) {
			hit.release();
			throw ex;
		}
		if (copy) {
			if (body != null) {
				body.release();
			}
			return encoderCtx.write(head, promise);
		}
		encoderCtx.write(head, encoderCtx.voidPromise());
		return encoderCtx.write(body, promise);
	}

	/**
	 * Write a {@code 304 Not Modified} from an entry, without flushing it.
	 * @param encoderCtx the context of the connection's response encoder
	 * @param notModified the answer
	 * @param close whether the connection closes after it
	 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
	 * @param promise the promise of the write, a void one when nothing listens for its end
	 * @return the future of the write
	 */
	public static ChannelFuture write(ChannelHandlerContext encoderCtx, Lookup.NotModified notModified, boolean close,
			boolean http10KeepAlive, ChannelPromise promise) {
		ByteBuf head = encode(encoderCtx.alloc(), notModified.entry().notModifiedHead().encoded(HEAD), notModified.ageSeconds(),
				close, http10KeepAlive, null);
		return encoderCtx.write(head, promise);
	}

	/**
	 * The head of an answer with {@code Date} and {@code Age}, and a small body behind it.
	 * @param alloc the connection's allocator
	 * @param head the pre-encoded head
	 * @param ageSeconds the age
	 * @param close whether the connection closes after it
	 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
	 * @param body a body to copy behind the head, or {@code null}
	 * @return a buffer the caller owns
	 */
	static ByteBuf encode(ByteBufAllocator alloc, byte[] head, long ageSeconds, boolean close, boolean http10KeepAlive,
			ByteBuf body) {
		AsciiString date = DateHeader.now();
		byte[] end = close ? CLOSE : (http10KeepAlive ? KEEP_ALIVE : CRLF);
		int bodyLength = (body != null) ? body.readableBytes() : 0;
		int size = head.length + DATE.length + date.length() + AGE.length + 20 + CRLF.length + end.length + bodyLength;
		ByteBuf buffer = alloc.directBuffer(size);
		buffer.writeBytes(head)
			.writeBytes(DATE)
			.writeBytes(date.array(), date.arrayOffset(), date.length())
			.writeBytes(AGE);
		writeDecimal(buffer, Math.max(0, ageSeconds));
		buffer.writeBytes(CRLF).writeBytes(end);
		if (bodyLength > 0) {
			buffer.writeBytes(body, body.readerIndex(), bodyLength);
		}
		return buffer;
	}

	private static void writeDecimal(ByteBuf buffer, long value) {
		if (value >= 10) {
			writeDecimal(buffer, value / 10);
		}
		buffer.writeByte((int) ('0' + value % 10));
	}

	private static byte[] ascii(String value) {
		return value.getBytes(StandardCharsets.US_ASCII);
	}

}
