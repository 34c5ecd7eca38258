package io.khamsin.container.http3;

import java.util.HashMap;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.util.AsciiString;
import io.netty.util.CharsetUtil;

/**
 * A whole response as the bytes of its request stream: a HEADERS frame whose field section refers to QPACK's static
 * table only (RFC 9204, section 4.5), and a DATA frame with the body, in one buffer the stream takes with its FIN in
 * one write. The server's QPACK dynamic table is off, so a field section never depends on the encoder stream, and
 * the frames go below Netty's HTTP/3 frame codec: one write to the QUIC stream a response, where the codec took three
 * (HEADERS, DATA, FIN), each with its own buffer and promise.
 * <p>
 * Values are written as they are, without Huffman coding: a response's fields are few and short, and the bytes saved
 * cost more CPU than the packet carries.
 */
final class Http3Frames {

	/** HEADERS frame type (RFC 9114, section 7.2.2). */
	private static final int HEADERS = 0x01;

	/** DATA frame type (section 7.2.1). */
	private static final int DATA = 0x00;

	/** Body length up to which the body is copied into the frames' buffer; a longer one follows it as is. */
	static final int COPY_LIMIT = 4096;

	/** Room before the field section for the HEADERS frame's type and length (a variable-length integer of 1-8 bytes). */
	private static final int HEADERS_PREFIX_ROOM = 9;

	/** QPACK's static table (RFC 9204, appendix A): name and value of each entry, by index. */
	private static final String[] STATIC_TABLE = { ":authority", "", ":path", "/", "age", "0", "content-disposition",
			"", "content-length", "0", "cookie", "", "date", "", "etag", "", "if-modified-since", "", "if-none-match", "",
			"last-modified", "", "link", "", "location", "", "referer", "", "set-cookie", "", ":method", "CONNECT",
			":method", "DELETE", ":method", "GET", ":method", "HEAD", ":method", "OPTIONS", ":method", "POST", ":method",
			"PUT", ":scheme", "http", ":scheme", "https", ":status", "103", ":status", "200", ":status", "304", ":status",
			"404", ":status", "503", "accept", "*/*", "accept", "application/dns-message", "accept-encoding",
			"gzip, deflate, br", "accept-ranges", "bytes", "access-control-allow-headers", "cache-control",
			"access-control-allow-headers", "content-type", "access-control-allow-origin", "*", "cache-control",
			"max-age=0", "cache-control", "max-age=2592000", "cache-control", "max-age=604800", "cache-control",
			"no-cache", "cache-control", "no-store", "cache-control", "public, max-age=31536000", "content-encoding", "br",
			"content-encoding", "gzip", "content-type", "application/dns-message", "content-type",
			"application/javascript", "content-type", "application/json", "content-type",
			"application/x-www-form-urlencoded", "content-type", "image/gif", "content-type", "image/jpeg",
			"content-type", "image/png", "content-type", "text/css", "content-type", "text/html;charset=utf-8",
			"content-type", "text/plain", "content-type", "text/plain;charset=utf-8", "range", "bytes=0-",
			"strict-transport-security", "max-age=31536000", "strict-transport-security",
			"max-age=31536000;includesubdomains", "strict-transport-security",
			"max-age=31536000;includesubdomains;preload", "vary", "accept-encoding", "vary", "origin",
			"x-content-type-options", "nosniff", "x-xss-protection", "1; mode=block", ":status", "100", ":status", "204",
			":status", "206", ":status", "302", ":status", "400", ":status", "403", ":status", "421", ":status", "425",
			":status", "500", "accept-language", "", "access-control-allow-credentials", "FALSE",
			"access-control-allow-credentials", "TRUE", "access-control-allow-headers", "*",
			"access-control-allow-methods", "get", "access-control-allow-methods", "get, post, options",
			"access-control-allow-methods", "options", "access-control-expose-headers", "content-length",
			"access-control-request-headers", "content-type", "access-control-request-method", "get",
			"access-control-request-method", "post", "alt-svc", "clear", "authorization", "",
			"content-security-policy", "script-src 'none';object-src 'none';base-uri 'none'", "early-data", "1",
			"expect-ct", "", "forwarded", "", "if-range", "", "origin", "", "purpose", "prefetch", "server", "",
			"timing-allow-origin", "*", "upgrade-insecure-requests", "1", "user-agent", "", "x-forwarded-for", "",
			"x-frame-options", "deny", "x-frame-options", "sameorigin" };

	/** Static table size: 99 entries. */
	static final int STATIC_TABLE_SIZE = STATIC_TABLE.length / 2;

	/** The static table's indices by name, each name's entries in index order. */
	private static final Map<AsciiString, int[]> INDICES = indices();

	private static final AsciiString[] VALUES = values();

	private Http3Frames() {
	}

	/**
	 * The frames of a whole response.
	 * @param alloc where the buffer comes from
	 * @param headers the field section, names in lower case, pseudo-fields first
	 * @param body the body, or {@code null} for none; taken over (released or made part of the result)
	 * @return the HEADERS frame, and a DATA frame when the body has bytes, as one direct buffer
	 */
	static ByteBuf response(ByteBufAllocator alloc, Http3Headers headers, ByteBuf body) {
		int bodyLength = (body != null) ? body.readableBytes() : 0;
		boolean copy = bodyLength <= COPY_LIMIT;
		ByteBuf frames = alloc.directBuffer(256 + (copy ? bodyLength : 0));
		try {
			frames.writerIndex(HEADERS_PREFIX_ROOM);
			fieldSection(headers, frames);
			int sectionLength = frames.writerIndex() - HEADERS_PREFIX_ROOM;
			int start = HEADERS_PREFIX_ROOM - 1 - varIntLength(sectionLength);
			int end = frames.writerIndex();
			frames.writerIndex(start);
			writeVarInt(frames, HEADERS);
			writeVarInt(frames, sectionLength);
			frames.setIndex(start, end);
			if (bodyLength > 0) {
				writeVarInt(frames, DATA);
				writeVarInt(frames, bodyLength);
				if (copy) {
					frames.writeBytes(body);
				}
			}
		}
		catch (RuntimeException ex) {
			frames.release();
			if (body != null) {
				body.release();
			}
			throw ex;
		}
		if (body == null) {
			return frames;
		}
		if (copy) {
			body.release();
			return frames;
		}
		CompositeByteBuf whole = alloc.compositeDirectBuffer(2);
		return whole.addComponents(true, frames, body);
	}

	/**
	 * Encode a field section with QPACK's static table only: Required Insert Count and Base 0, then each field
	 * as an indexed line where the table holds it whole, a line with a name reference where it holds its name, or a
	 * literal line.
	 */
	static void fieldSection(Http3Headers headers, ByteBuf out) {
		out.writeByte(0).writeByte(0);
		headers.forEach((field) -> fieldLine(field.getKey(), field.getValue(), out));
	}

	private static void fieldLine(CharSequence name, CharSequence value, ByteBuf out) {
		int[] indices = INDICES.get((name instanceof AsciiString ascii) ? ascii : new AsciiString(name));
		if (indices != null) {
			for (int index : indices) {
				if (VALUES[index].contentEquals(value)) {
					// Indexed field line, static table: 1 T=1 index (6-bit prefix).
					writePrefixedInt(out, 0xc0, 6, index);
					return;
				}
			}
			// Literal field line with name reference, static table: 0 1 N=0 T=1 index (4-bit prefix).
			writePrefixedInt(out, 0x50, 4, indices[0]);
			stringLiteral(value, 0x00, 7, out);
			return;
		}
		// Literal field line with literal name: 0 0 1 N=0 H=0 name length (3-bit prefix).
		stringLiteral(name, 0x20, 3, out);
		stringLiteral(value, 0x00, 7, out);
	}

	/** A string literal without Huffman coding: its length with an N-bit prefix after {@code mask}, then its bytes. */
	private static void stringLiteral(CharSequence value, int mask, int prefixBits, ByteBuf out) {
		writePrefixedInt(out, mask, prefixBits, value.length());
		out.writeCharSequence(value, CharsetUtil.ISO_8859_1);
	}

	/** An integer with an N-bit prefix (RFC 7541, section 5.1, which QPACK uses). */
	static void writePrefixedInt(ByteBuf out, int mask, int prefixBits, long value) {
		int max = (1 << prefixBits) - 1;
		if (value < max) {
			out.writeByte(mask | (int) value);
			return;
		}
		out.writeByte(mask | max);
		long rest = value - max;
		while (rest >= 0x80) {
			out.writeByte((int) ((rest & 0x7f) | 0x80));
			rest >>>= 7;
		}
		out.writeByte((int) rest);
	}

	/** A QUIC variable-length integer (RFC 9000, section 16) in its shortest form. */
	static void writeVarInt(ByteBuf out, long value) {
		switch (varIntLength(value)) {
			case 1 -> out.writeByte((int) value);
			case 2 -> out.writeShort((int) (0x4000 | value));
			case 4 -> out.writeInt((int) (0x80000000L | value));
			default -> out.writeLong(0xc000000000000000L | value);
		}
	}

	static int varIntLength(long value) {
		if (value < 0x40) {
			return 1;
		}
		if (value < 0x4000) {
			return 2;
		}
		return (value < 0x40000000) ? 4 : 8;
	}

	private static Map<AsciiString, int[]> indices() {
		Map<AsciiString, int[]> indices = new HashMap<>();
		for (int index = 0; index < STATIC_TABLE_SIZE; index++) {
			AsciiString name = AsciiString.cached(STATIC_TABLE[2 * index]);
			int[] before = indices.get(name);
			int[] now = (before != null) ? java.util.Arrays.copyOf(before, before.length + 1) : new int[1];
			now[now.length - 1] = index;
			indices.put(name, now);
		}
		return indices;
	}

	private static AsciiString[] values() {
		AsciiString[] values = new AsciiString[STATIC_TABLE_SIZE];
		for (int index = 0; index < STATIC_TABLE_SIZE; index++) {
			values[index] = AsciiString.cached(STATIC_TABLE[2 * index + 1]);
		}
		return values;
	}

}
