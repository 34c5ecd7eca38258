package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;

import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.fixed.FixedResponseTable;

/**
 * The server's fixed responses encoded once as HTTP/1.1 bytes, one head per entry of its
 * {@link FixedResponseTable}, up to the {@code Date} header. Answering one takes one pooled buffer and a copy of
 * about a hundred bytes: no header objects, no encoder.
 */
final class Http1FixedResponses {

	private static final byte[] DATE = ascii("Date: ");

	private static final byte[] CRLF = ascii("\r\n");

	private static final byte[] CLOSE = ascii("Connection: close\r\n\r\n");

	private static final byte[] KEEP_ALIVE = ascii("Connection: keep-alive\r\n\r\n");

	private final byte[][] heads;

	private Http1FixedResponses(byte[][] heads) {
		this.heads = heads;
	}

	/**
	 * Encode every entry of a table.
	 * @param table the fixed responses
	 * @return their HTTP/1.1 heads
	 */
	static Http1FixedResponses encode(FixedResponseTable table) {
		List<FixedResponseTable.Entry> entries = table.entries();
		byte[][] heads = new byte[entries.size()][];
		for (FixedResponseTable.Entry entry : entries) {
			heads[entry.index()] = head(entry);
		}
		return new Http1FixedResponses(heads);
	}

	private static byte[] head(FixedResponseTable.Entry entry) {
		StringBuilder head = new StringBuilder(128);
		head.append("HTTP/1.1 ").append(HttpResponseStatus.valueOf(entry.status())).append("\r\n");
		if (entry.contentType() != null) {
			head.append("Content-Type: ").append(entry.contentType()).append("\r\n");
		}
		if (entry.contentLength() != null) {
			head.append("Content-Length: ").append(entry.contentLength()).append("\r\n");
		}
		if (entry.serverHeader() != null) {
			head.append("Server: ").append(entry.serverHeader()).append("\r\n");
		}
		entry.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		return ascii(head.toString());
	}

	/**
	 * Write a whole fixed response past the encoder, without flushing it.
	 * @param encoderCtx the context of the connection's codec
	 * @param entry the fixed response
	 * @param headRequest whether to leave the body out ({@code HEAD})
	 * @param close whether the connection closes after it ({@code Connection: close})
	 * @param http10KeepAlive whether an HTTP/1.0 client is told the connection stays open
	 * @param promise the promise of the write, a void one when nothing listens for its end
	 * @return the future of the write
	 */
	ChannelFuture write(ChannelHandlerContext encoderCtx, FixedResponseTable.Entry entry, boolean headRequest,
			boolean close, boolean http10KeepAlive, ChannelPromise promise) {
		return encoderCtx.write(encode(encoderCtx.alloc(), entry, headRequest, close, http10KeepAlive), promise);
	}

	private ByteBuf encode(ByteBufAllocator alloc, FixedResponseTable.Entry entry, boolean headRequest, boolean close,
			boolean http10KeepAlive) {
		byte[] head = this.heads[entry.index()];
		AsciiString date = DateHeader.now();
		byte[] end = close ? CLOSE : (http10KeepAlive ? KEEP_ALIVE : CRLF);
		int bodyLength = headRequest ? 0 : entry.body().length;
		int size = head.length + DATE.length + date.length() + CRLF.length + end.length + bodyLength;
		ByteBuf buffer = alloc.directBuffer(size);
		buffer.writeBytes(head)
			.writeBytes(DATE)
			.writeBytes(date.array(), date.arrayOffset(), date.length())
			.writeBytes(CRLF)
			.writeBytes(end);
		if (bodyLength > 0) {
			buffer.writeBytes(entry.body());
		}
		return buffer;
	}

	private static byte[] ascii(String value) {
		return value.getBytes(StandardCharsets.US_ASCII);
	}

}
