package io.khamsin.container.cache;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How one protocol encodes the head of a page-cache answer ({@link CachedHead}): HTTP/1.1 as the bytes of a status
 * line and header fields, HTTP/2 and HTTP/3 as a header list. Each head is encoded once, the first time its
 * protocol serves it, and kept with the entry, so that a hit costs the protocol a copy of what it encoded before,
 * and the cache knows no protocol. An encoding is made once per protocol, as a constant of its hit writer.
 *
 * @param <T> what the protocol writes a head as
 */
public abstract class HeadEncoding<T> {

	/** How many encodings a head keeps: one per protocol, with room for one more. */
	static final int SLOTS = 4;

	private static final AtomicInteger made = new AtomicInteger();

	final int slot;

	/**
	 * Claim a slot in every head for this encoding.
	 * @throws IllegalStateException when more encodings are made than a head has slots (one per protocol)
	 */
	protected HeadEncoding() {
		this.slot = made.getAndIncrement();
		if (this.slot >= SLOTS) {
			throw new IllegalStateException("A cached head keeps " + SLOTS + " encodings, one per protocol: make each "
					+ "encoding once, as a constant");
		}
	}

	/**
	 * Encode a head in the protocol's form. Called at most a few times per head (two threads may race to it); the
	 * result is shared by every answer of that head and must not be changed afterwards.
	 * @param head the head
	 * @return its encoding
	 */
	protected abstract T encode(CachedHead head);

}
