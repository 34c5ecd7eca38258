package io.khamsin.container.http2.conformance;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the cases send besides requests: PING opaque data, filler bodies and filler header fields, as h2spec sends
 * them.
 */
final class Payloads {

	private Payloads() {
	}

	/** Eight bytes of PING opaque data from a short text, zero-padded. */
	static byte[] opaque(String text) {
		return Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), 8);
	}

	static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/** A body of {@code length} bytes of {@code x}. */
	static byte[] filler(int length) {
		byte[] bytes = new byte[length];
		Arrays.fill(bytes, (byte) 'x');
		return bytes;
	}

	/** A header block of {@code count} fields {@code x-dummyN} whose values are {@code length} bytes long. */
	static byte[] dummyHeaders(int count, int length) {
		HeaderBlock block = HeaderBlock.create();
		String value = new String(filler(length), StandardCharsets.US_ASCII);
		for (int i = 0; i < count; i++) {
			block.field("x-dummy" + i, value);
		}
		return block.bytes();
	}

	/** One filler field, small enough to fit any header list limit. */
	static byte[] dummyHeader() {
		return dummyHeaders(1, 100);
	}

}
