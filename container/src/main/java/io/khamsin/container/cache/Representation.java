package io.khamsin.container.cache;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;

/**
 * One coding of an entry's body, with the heads that go before it, each encoded the first time a protocol asks
 * and kept: an HTTP/1.1 head as bytes up to (not including) its {@code Date}, and an HTTP/2 {@link Http2Headers}
 * without {@code date} and {@code age}. The body belongs to the entry, which releases it.
 */
public final class Representation {

	private final CachedResponse entry;

	private final ContentCoding coding;

	private final ByteBuf body;

	private final int length;

	private volatile byte[] http1Head;

	private volatile Http2Headers http2Headers;

	Representation(CachedResponse entry, ContentCoding coding, ByteBuf body) {
		this.entry = entry;
		this.coding = coding;
		this.body = body;
		this.length = body.readableBytes();
	}

	/** @return the coding of the body */
	public ContentCoding coding() {
		return this.coding;
	}

	/** @return the body's length in bytes */
	public int length() {
		return this.length;
	}

	ByteBuf body() {
		return this.body;
	}

	/**
	 * The HTTP/1.1 status line and headers, {@code Content-Length} included, ending before {@code Date}: the writer
	 * adds {@code Date}, {@code Age}, the connection's header and the blank line (RFC 9112, section 4 and 6).
	 * @return the bytes, shared: do not change them
	 */
	public byte[] http1Head() {
		byte[] head = this.http1Head;
		if (head == null) {
			head = encodeHttp1();
			this.http1Head = head;
		}
		return head;
	}

	/**
	 * The HTTP/2 header block without {@code date} and {@code age} (RFC 9113, section 8.3.2): copy it and add
	 * them per response, see {@link Http2HitHeaders}.
	 * @return the headers, shared: do not change them
	 */
	public Http2Headers http2Headers() {
		Http2Headers headers = this.http2Headers;
		if (headers == null) {
			headers = encodeHttp2();
			this.http2Headers = headers;
		}
		return headers;
	}

	private byte[] encodeHttp1() {
		StringBuilder head = new StringBuilder(256);
		head.append("HTTP/1.1 ").append(HttpResponseStatus.valueOf(this.entry.status())).append("\r\n");
		this.entry.forEachHeader(this.coding, (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		if (CachedResponse.mayHaveBody(this.entry.status())) {
			head.append("Content-Length: ").append(this.length).append("\r\n");
		}
		return head.toString().getBytes(StandardCharsets.ISO_8859_1);
	}

	private Http2Headers encodeHttp2() {
		DefaultHttp2Headers headers = new DefaultHttp2Headers(false, 16);
		headers.status(AsciiString.of(Integer.toString(this.entry.status())));
		this.entry.forEachHeader(this.coding, (name, value) -> headers.add(AsciiString.of(PageKeys.lower(name)), value));
		if (CachedResponse.mayHaveBody(this.entry.status())) {
			headers.setInt(AsciiString.cached("content-length"), this.length);
		}
		return headers;
	}

	int weight() {
		// The heads are counted before they exist, so that an entry's weight does not change when one is encoded.
		return this.length + 2 * this.entry.headerChars() + 128;
	}

}
