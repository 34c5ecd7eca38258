package io.khamsin.container.cache;

import io.netty.buffer.ByteBuf;

import io.khamsin.container.compression.ContentCoding;

/**
 * One coding of an entry's body, with the head that goes before it ({@link CachedHead}), which each protocol
 * encodes the first time it serves it. The body belongs to the entry, which releases it.
 */
public final class Representation {

	private final CachedResponse entry;

	private final ContentCoding coding;

	private final ByteBuf body;

	private final int length;

	private final CachedHead head;

	Representation(CachedResponse entry, ContentCoding coding, ByteBuf body) {
		this.entry = entry;
		this.coding = coding;
		this.body = body;
		this.length = body.readableBytes();
		this.head = CachedHead.of(entry, coding, this.length);
	}

	/** @return the coding of the body */
	public ContentCoding coding() {
		return this.coding;
	}

	/** @return the body's length in bytes */
	public int length() {
		return this.length;
	}

	/** @return the head that goes before the body */
	public CachedHead head() {
		return this.head;
	}

	ByteBuf body() {
		return this.body;
	}

	int weight() {
		// The heads are counted before they exist, so that an entry's weight does not change when one is encoded.
		return this.length + 2 * this.entry.headerChars() + 128;
	}

}
