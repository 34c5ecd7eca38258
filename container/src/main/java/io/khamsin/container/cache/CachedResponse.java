package io.khamsin.container.cache;

import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

import io.netty.buffer.ByteBuf;

import io.khamsin.container.compression.ContentCoding;

/**
 * One stored response: status, headers, the body in pooled direct memory, and the compressed variants made since.
 * The entry counts its own references: the local tier holds one, and every writer takes one for as long as it
 * takes to duplicate the body ({@link #retainedBody}), so an entry evicted while a hit is being written is freed
 * once the write is done with it, never under the writer.
 */
public final class CachedResponse implements Stored {

	private static final AtomicIntegerFieldUpdater<CachedResponse> REFS = AtomicIntegerFieldUpdater
		.newUpdater(CachedResponse.class, "refs");

	private static final int MAKING = 1;

	private static final int MADE = 2;

	private final String page;

	private final String variant;

	private final int status;

	private final String[] names;

	private final String[] values;

	private final int headerChars;

	private final String vary;

	private final boolean managesCodings;

	private final List<String> varyNames;

	private final String etag;

	private final long lastModified;

	private final long storedAt;

	private final long initialAge;

	private final long freshMillis;

	private final long staleWhileRevalidateMillis;

	private final long staleIfErrorMillis;

	private final boolean isPublic;

	private final List<String> tags;

	private final AtomicReferenceArray<Representation> representations = new AtomicReferenceArray<>(
			ContentCoding.values().length);

	private final AtomicIntegerArray variantStates = new AtomicIntegerArray(ContentCoding.values().length);

	private final LongAdder hits = new LongAdder();

	private volatile int refs = 1;

	private volatile CachedHead notModifiedHead;

	private boolean freed;

	CachedResponse(String page, String variant, int status, String[] names, String[] values, ByteBuf body,
			Metadata metadata) {
		this.page = page;
		this.variant = variant;
		this.status = status;
		this.names = names;
		this.values = values;
		int chars = 0;
		String vary = null;
		for (int i = 0; i < names.length; i++) {
			chars += names[i].length() + values[i].length() + 4;
		}
		this.managesCodings = metadata.managesCodings();
		if (this.managesCodings) {
			vary = mergedVary(names, values);
		}
		this.vary = vary;
		this.headerChars = chars + ((vary != null) ? vary.length() + 8 : 0) + 64;
		this.varyNames = metadata.varyNames();
		this.etag = metadata.etag();
		this.lastModified = metadata.lastModified();
		this.storedAt = metadata.storedAt();
		this.initialAge = metadata.initialAge();
		this.freshMillis = metadata.freshMillis();
		this.staleWhileRevalidateMillis = metadata.staleWhileRevalidateMillis();
		this.staleIfErrorMillis = metadata.staleIfErrorMillis();
		this.isPublic = metadata.isPublic();
		this.tags = metadata.tags();
		this.representations.set(ContentCoding.IDENTITY.ordinal(), new Representation(this, ContentCoding.IDENTITY, body));
	}

	private static String mergedVary(String[] names, String[] values) {
		StringBuilder vary = new StringBuilder();
		for (int i = 0; i < names.length; i++) {
			if (names[i].equalsIgnoreCase("vary")) {
				for (String name : values[i].split(",")) {
					String trimmed = name.trim();
					if (!trimmed.isEmpty() && !trimmed.equalsIgnoreCase("accept-encoding")) {
						vary.append(trimmed).append(", ");
					}
				}
			}
		}
		return vary.append("Accept-Encoding").toString();
	}

	/** @return the page key */
	@Override
	public String page() {
		return this.page;
	}

	/** @return the key of the entry: the page key and its {@code Vary} values */
	public String key() {
		return PageKeys.entryKey(this.page, this.variant);
	}

	String variant() {
		return this.variant;
	}

	/** @return the status */
	public int status() {
		return this.status;
	}

	int headerCount() {
		return this.names.length;
	}

	String headerName(int index) {
		return this.names[index];
	}

	String headerValue(int index) {
		return this.values[index];
	}

	int headerChars() {
		return this.headerChars;
	}

	List<String> varyNames() {
		return this.varyNames;
	}

	boolean managesCodings() {
		return this.managesCodings;
	}

	String etag() {
		return this.etag;
	}

	long lastModified() {
		return this.lastModified;
	}

	long storedAt() {
		return this.storedAt;
	}

	long initialAge() {
		return this.initialAge;
	}

	long freshMillis() {
		return this.freshMillis;
	}

	long staleWhileRevalidateMillis() {
		return this.staleWhileRevalidateMillis;
	}

	long staleIfErrorMillis() {
		return this.staleIfErrorMillis;
	}

	boolean isPublic() {
		return this.isPublic;
	}

	List<String> tags() {
		return this.tags;
	}

	Metadata metadata() {
		return new Metadata(this.varyNames, this.managesCodings, this.etag, this.lastModified, this.storedAt,
				this.initialAge, this.freshMillis, this.staleWhileRevalidateMillis, this.staleIfErrorMillis,
				this.isPublic, this.tags);
	}

	/** @return the current age in milliseconds (RFC 9111, section 4.2.3) */
	long ageMillis(long nowMillis) {
		return this.initialAge + Math.max(0, nowMillis - this.storedAt);
	}

	boolean isFresh(long nowMillis) {
		return ageMillis(nowMillis) < this.freshMillis;
	}

	/** @return the time left before the entry can no longer be served at all, stale included */
	long servableMillis(long nowMillis) {
		return this.freshMillis + Math.max(this.staleWhileRevalidateMillis, this.staleIfErrorMillis)
				- ageMillis(nowMillis);
	}

	@Override
	public long keepNanos(long nowMillis) {
		return Math.max(0, servableMillis(nowMillis)) * 1_000_000L;
	}

	/**
	 * Call every header of a representation but {@code Content-Length}: the stored ones, with {@code Vary} and
	 * {@code Content-Encoding} written for the coding when the cache makes the variants.
	 */
	public void forEachHeader(ContentCoding coding, BiConsumer<String, String> action) {
		for (int i = 0; i < this.names.length; i++) {
			if (this.vary != null && this.names[i].equalsIgnoreCase("vary")) {
				continue;
			}
			action.accept(this.names[i], this.values[i]);
		}
		if (this.vary != null) {
			action.accept("Vary", this.vary);
		}
		if (coding != ContentCoding.IDENTITY) {
			action.accept("Content-Encoding", coding.token());
		}
	}

	/** @return the head of the entry's {@code 304 Not Modified}: the stored headers it repeats */
	public CachedHead notModifiedHead() {
		CachedHead head = this.notModifiedHead;
		if (head == null) {
			head = CachedHead.notModified(this);
			this.notModifiedHead = head;
		}
		return head;
	}

	/**
	 * Whether a header of the stored response goes into a {@code 304} too (RFC 9110, section 15.4.5).
	 * @param name the header's name
	 * @return whether it does
	 */
	public static boolean repeatedIn304(String name) {
		return name.equalsIgnoreCase("etag") || name.equalsIgnoreCase("cache-control")
				|| name.equalsIgnoreCase("expires") || name.equalsIgnoreCase("vary")
				|| name.equalsIgnoreCase("content-location") || name.equalsIgnoreCase("server");
	}

	/** @return the identity body's representation */
	public Representation identity() {
		return this.representations.get(ContentCoding.IDENTITY.ordinal());
	}

	/**
	 * A representation made so far.
	 * @param coding the coding
	 * @return it, or {@code null} if it was not made (yet)
	 */
	public Representation representation(ContentCoding coding) {
		return this.representations.get(coding.ordinal());
	}

	/** @return whether this caller is the one to make the variant of a coding */
	boolean claimVariant(ContentCoding coding) {
		return this.variantStates.compareAndSet(coding.ordinal(), 0, MAKING);
	}

	/** The variant was made (or could not be, when {@code body} is {@code null}); the entry now owns the body. */
	void variantMade(ContentCoding coding, ByteBuf body) {
		this.variantStates.set(coding.ordinal(), MADE);
		if (body == null) {
			return;
		}
		synchronized (this) {
			if (!this.freed) {
				this.representations.set(coding.ordinal(), new Representation(this, coding, body));
				return;
			}
		}
		body.release();
	}

	/** @return the hits counted on this entry */
	long hits() {
		return this.hits.sum();
	}

	void hit() {
		this.hits.increment();
	}

	@Override
	public int weight() {
		int weight = 2 * this.page.length() + 2 * this.variant.length() + 256;
		for (int i = 0; i < this.representations.length(); i++) {
			Representation representation = this.representations.get(i);
			if (representation != null) {
				weight += representation.weight();
			}
		}
		return weight;
	}

	/**
	 * Take a reference unless the entry was already freed.
	 * @return whether the entry is held
	 */
	boolean tryRetain() {
		for (;;) {
			int refs = this.refs;
			if (refs <= 0) {
				return false;
			}
			if (REFS.compareAndSet(this, refs, refs + 1)) {
				return true;
			}
		}
	}

	void release() {
		if (REFS.decrementAndGet(this) == 0) {
			free();
		}
	}

	/**
	 * A duplicate of a representation's body with its own reference, for one writer, or {@code null} when the
	 * entry was freed meanwhile.
	 * @param representation the representation
	 * @return the body, owned by the caller
	 */
	ByteBuf retainedBody(Representation representation) {
		if (!tryRetain()) {
			return null;
		}
		try {
			return representation.body().retainedDuplicate();
		}
		finally {
			release();
		}
	}

	@Override
	public void dropped() {
		release();
	}

	private void free() {
		synchronized (this) {
			this.freed = true;
		}
		for (int i = 0; i < this.representations.length(); i++) {
			Representation representation = this.representations.getAndSet(i, null);
			if (representation != null) {
				representation.body().release();
			}
		}
	}

	/**
	 * Whether a response of this status carries a body, and so a {@code Content-Length}.
	 * @param status the status
	 * @return whether it does
	 */
	public static boolean mayHaveBody(int status) {
		return status >= 200 && status != 204 && status != 304;
	}

	@Override
	public String toString() {
		return "CachedResponse[" + key() + ", " + this.status + ", " + identity() + "]";
	}

	/**
	 * What the cache decided about a response when it stored it.
	 *
	 * @param varyNames the request headers that pick the entry, lower case and sorted
	 * @param managesCodings whether the cache makes the compressed variants (and so adds {@code Accept-Encoding}
	 * to {@code Vary})
	 * @param etag the {@code ETag}, or {@code null}
	 * @param lastModified the {@code Last-Modified} time, or {@code -1}
	 * @param storedAt when it was stored
	 * @param initialAge its age when stored (RFC 9111, section 4.2.3), in milliseconds
	 * @param freshMillis its freshness lifetime
	 * @param staleWhileRevalidateMillis how long past it it may be served while revalidated
	 * @param staleIfErrorMillis how long past it it may be served instead of an error
	 * @param isPublic whether it said {@code public}: then a request with {@code Authorization} may be served it
	 * @param tags its purge tags
	 */
	record Metadata(List<String> varyNames, boolean managesCodings, String etag, long lastModified, long storedAt,
			long initialAge, long freshMillis, long staleWhileRevalidateMillis, long staleIfErrorMillis,
			boolean isPublic, List<String> tags) {

	}

}
