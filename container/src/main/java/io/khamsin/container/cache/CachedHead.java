package io.khamsin.container.cache;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

import io.khamsin.container.compression.ContentCoding;

/**
 * The head of an answer the page cache gives, in no protocol's form: the status and the stored header fields of one
 * representation of an entry (with {@code Content-Encoding}, {@code Vary} and {@code Content-Length}), or those of
 * the entry's {@code 304 Not Modified} (RFC 9110, section 15.4.5). The protocol that writes it asks for
 * {@link #encoded} in its own form and adds what changes per answer ({@code Date}, {@code Age}, its connection's
 * fields).
 */
public final class CachedHead {

	private final CachedResponse entry;

	private final ContentCoding coding;

	private final int status;

	private final int contentLength;

	private final AtomicReferenceArray<Object> encoded = new AtomicReferenceArray<>(HeadEncoding.SLOTS);

	private CachedHead(CachedResponse entry, ContentCoding coding, int status, int contentLength) {
		this.entry = entry;
		this.coding = coding;
		this.status = status;
		this.contentLength = contentLength;
	}

	static CachedHead of(CachedResponse entry, ContentCoding coding, int bodyLength) {
		int status = entry.status();
		return new CachedHead(entry, coding, status, CachedResponse.mayHaveBody(status) ? bodyLength : -1);
	}

	static CachedHead notModified(CachedResponse entry) {
		return new CachedHead(entry, null, 304, -1);
	}

	/** @return the status */
	public int status() {
		return this.status;
	}

	/** @return the {@code Content-Length} to send, or {@code -1} when the answer has none */
	public int contentLength() {
		return this.contentLength;
	}

	/**
	 * Call every header field of the head, {@code Content-Length} excepted, with its name as stored.
	 * @param action takes each name and value
	 */
	public void forEachHeader(BiConsumer<String, String> action) {
		if (this.coding != null) {
			this.entry.forEachHeader(this.coding, action);
			return;
		}
		this.entry.forEachHeader(ContentCoding.IDENTITY, (name, value) -> {
			if (CachedResponse.repeatedIn304(name)) {
				action.accept(name, value);
			}
		});
	}

	/**
	 * The head in a protocol's form, encoded the first time the protocol asks.
	 * @param encoding the protocol's encoding
	 * @param <T> what the protocol writes a head as
	 * @return the encoded head, shared: do not change it
	 */
	@SuppressWarnings("unchecked")
	public <T> T encoded(HeadEncoding<T> encoding) {
		Object head = this.encoded.get(encoding.slot);
		if (head == null) {
			head = encoding.encode(this);
			this.encoded.set(encoding.slot, head);
		}
		return (T) head;
	}

}
