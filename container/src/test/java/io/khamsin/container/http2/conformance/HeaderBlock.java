package io.khamsin.container.http2.conformance;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A header block written representation by representation (RFC 7541 section 6), for the blocks an encoder would
 * refuse to produce: fields in any order, repeated pseudo-header fields, upper-case names, indexes out of range,
 * table size updates where they are not allowed, and raw bytes such as bad Huffman strings. Fields are literals
 * without indexing and without Huffman coding, so the block leaves the peer's dynamic table as it was.
 */
final class HeaderBlock {

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	static HeaderBlock create() {
		return new HeaderBlock();
	}

	/** A literal header field without indexing, new name (RFC 7541 section 6.2.2). */
	HeaderBlock field(String name, String value) {
		this.bytes.write(0x00);
		string(name);
		string(value);
		return this;
	}

	/** An indexed header field (RFC 7541 section 6.1). */
	HeaderBlock indexed(int index) {
		integer(index, 7, 0x80);
		return this;
	}

	/** A dynamic table size update (RFC 7541 section 6.3). */
	HeaderBlock tableSizeUpdate(int size) {
		integer(size, 5, 0x20);
		return this;
	}

	/** Representations written by hand, as they go on the wire. */
	HeaderBlock raw(byte[] representation) {
		this.bytes.writeBytes(representation);
		return this;
	}

	HeaderBlock raw(int... representation) {
		for (int b : representation) {
			this.bytes.write(b);
		}
		return this;
	}

	byte[] bytes() {
		return this.bytes.toByteArray();
	}

	private void string(String value) {
		byte[] octets = value.getBytes(StandardCharsets.ISO_8859_1);
		integer(octets.length, 7, 0x00);
		this.bytes.writeBytes(octets);
	}

	/** An integer with an N-bit prefix (RFC 7541 section 5.1), the prefix's other bits set to {@code mask}. */
	private void integer(int value, int prefixBits, int mask) {
		int max = (1 << prefixBits) - 1;
		if (value < max) {
			this.bytes.write(mask | value);
			return;
		}
		this.bytes.write(mask | max);
		int rest = value - max;
		while (rest >= 128) {
			this.bytes.write((rest & 0x7f) | 0x80);
			rest >>>= 7;
		}
		this.bytes.write(rest);
	}

}
