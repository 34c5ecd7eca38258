package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The page cache's tap on one render's response, handed out with a {@link Lookup.Miss}: it sees the head and the
 * body as the application's response writes them (the exchange stage's tap feeds it from the bridge's write
 * path), and when the exchange completes it stores the response if it is cacheable. It copies the body as it is
 * written into one pooled direct buffer of the announced length (see {@link #onBody}); a head that makes the
 * response uncacheable, or a body past the largest object, stops the copying at once.
 * <p>
 * Exactly one of {@link #complete()} and {@link #abandon()} must be called, on the exchange's event loop; both
 * release what the ticket holds, and the second call does nothing.
 */
public final class Ticket {

	/** The role of a ticket. */
	enum Role {

		/** The first request of a key: its render may be stored, and lands the key's flight. */
		LEADER,

		/** A request that went to the application past a flight's waiters or timeout: stores nothing. */
		FOLLOWER,

		/** A background render of a stale entry: stored, lands the flight, counted nowhere (its hit was). */
		REVALIDATION,

		/** A {@code HEAD}, which has no body to store. */
		HEAD

	}

	private static final int DEFAULT_INITIAL_CAPACITY = 8 * 1024;

	private final DefaultPageCache cache;

	private final CacheRequest request;

	private final String page;

	private final Flight flight;

	private final Role role;

	private final boolean admitted;

	private final CacheTier tier;

	private CachedResponse fallback;

	private boolean capturing;

	private boolean ended;

	private boolean answeredStale;

	private int status;

	private String[] names;

	private String[] values;

	private Cacheability.Decision decision;

	private ByteBuf body;

	private String refusal;

	private boolean tooLarge;

	private long announcedLength = -1;

	private long bodyBytes;

	Ticket(DefaultPageCache cache, CacheRequest request, String page, Flight flight, Role role, boolean admitted,
			CacheTier tier, CachedResponse fallback) {
		this.cache = cache;
		this.request = request;
		this.page = page;
		this.flight = flight;
		this.role = role;
		this.admitted = admitted;
		this.tier = tier;
		this.fallback = fallback;
		this.capturing = role == Role.LEADER || role == Role.REVALIDATION;
	}

	/** @return whether the ticket is still copying the response to store it */
	public boolean isCapturing() {
		return this.capturing && this.admitted;
	}

	/**
	 * Whether the response was written whole: its head, and for a {@code GET} every byte its
	 * {@code Content-Length} announced. A connection that closes after that (a client that read the whole body and
	 * left before the exchange's completion reached the tap) leaves nothing partial to store.
	 * @return whether the head and the whole announced body were written
	 */
	public boolean isWrittenWhole() {
		if (this.names == null) {
			return false;
		}
		return this.role == Role.HEAD || (this.announcedLength >= 0 && this.bodyBytes == this.announcedLength);
	}

	/** @return whether the ticket renders a stale entry again in the background, its response written nowhere */
	public boolean isRevalidation() {
		return this.role == Role.REVALIDATION;
	}

	/** @return the request whose response the ticket taps */
	public CacheRequest request() {
		return this.request;
	}

	/**
	 * The response head, as it is written (after the protocol completed it). Its hop-by-hop headers
	 * (RFC 9110, section 7.6.1), {@code Content-Length} and {@code Transfer-Encoding} are not kept.
	 * @param status the status
	 * @param headers the headers; read now, not kept
	 */
	public void onHead(int status, HttpHeaders headers) {
		if (this.ended || this.names != null) {
			return;
		}
		this.status = status;
		List<String> names = new ArrayList<>(headers.size());
		List<String> values = new ArrayList<>(headers.size());
		String connection = headers.get("connection");
		long contentLength = -1;
		for (Map.Entry<String, String> header : headers) {
			String name = header.getKey();
			if (name.equalsIgnoreCase("content-length")) {
				contentLength = parseLength(header.getValue());
				continue;
			}
			if (isHopByHop(name, connection)) {
				continue;
			}
			names.add(name);
			values.add(header.getValue());
		}
		this.names = names.toArray(new String[0]);
		this.values = values.toArray(new String[0]);
		this.announcedLength = contentLength;
		if (this.role == Role.HEAD) {
			return;
		}
		this.decision = this.cache.decide(this.request, status, this.names, this.values);
		if (!this.decision.storable()) {
			stopCapturing(this.decision.reason());
		}
		else if (contentLength > this.cache.config().maxObjectSize()) {
			this.tooLarge = true;
			stopCapturing("a body of " + contentLength + " bytes, over the largest object stored");
		}
		else if (isCapturing()) {
			int initial = (contentLength >= 0) ? (int) contentLength : DEFAULT_INITIAL_CAPACITY;
			this.body = this.cache.alloc().directBuffer(Math.max(initial, 1), (int) this.cache.config().maxObjectSize());
		}
	}

	/**
	 * A part of the body, as it is written. The ticket copies its readable bytes into its own buffer, and neither
	 * keeps nor releases the part: the copy (memcpy speed, about 5 us for a 50 KB page) leaves the application's
	 * buffers, often heap or slices of larger ones, free to go back to their pools once written, and makes the
	 * entry one contiguous direct buffer that every hit duplicates.
	 * @param part the part
	 */
	public void onBody(ByteBuf part) {
		if (this.ended) {
			return;
		}
		int length = part.readableBytes();
		this.bodyBytes += length;
		ByteBuf body = this.body;
		if (body == null || !this.capturing) {
			return;
		}
		if (body.writerIndex() + length > body.maxCapacity()) {
			this.tooLarge = true;
			stopCapturing("a body over the largest object stored (" + this.cache.config().maxObjectSize() + " bytes)");
			return;
		}
		body.writeBytes(part, part.readerIndex(), length);
	}

	/**
	 * Serve the stale entry instead of an error of the application, when stale-if-error allows it (RFC 5861,
	 * section 4): call it when the response head about to be written has the status, and write the hit instead.
	 * @param status the status the application answered
	 * @return a hit (owned by the caller) for a 500, 502, 503 or 504 within the window, or {@code null}
	 */
	public Lookup.Hit staleIfError(int status) {
		if (this.fallback == null || this.ended || (status != 500 && status != 502 && status != 503 && status != 504)) {
			return null;
		}
		Lookup.Hit hit = this.cache.staleHit(this.fallback, this.request);
		if (hit != null) {
			this.answeredStale = true;
			stopCapturing("answered stale instead of " + status);
		}
		return hit;
	}

	/**
	 * The exchange completed: store the response if it is cacheable and whole, release what the ticket holds, and
	 * tell the requests waiting for this render.
	 */
	public void complete() {
		if (this.ended) {
			return;
		}
		this.ended = true;
		CachedResponse stored = null;
		boolean uncacheable = false;
		if (this.role != Role.HEAD && !this.answeredStale) {
			if (this.names == null) {
				this.refusal = "no response head";
			}
			else if ((this.decision != null && !this.decision.storable()) || this.tooLarge) {
				uncacheable = true;
			}
			else if (this.capturing && this.admitted && this.body != null) {
				stored = this.cache.store(this.request, this.page, this.status, this.names, this.values, takeBody(),
						this.decision);
			}
		}
		release();
		count(uncacheable, stored != null);
		this.cache.land(this.flight, stored, uncacheable);
	}

	/**
	 * The exchange failed or was cancelled: store nothing, release what the ticket holds, and let the requests
	 * waiting for this render go to the application.
	 */
	public void abandon() {
		if (this.ended) {
			return;
		}
		this.ended = true;
		release();
		count(false, false);
		if (this.flight != null) {
			this.cache.land(this.flight, null, false);
		}
	}

	private void count(boolean uncacheable, boolean stored) {
		if (this.role == Role.REVALIDATION) {
			return;
		}
		if (this.answeredStale) {
			this.cache.counters().count(CacheResult.STALE, CacheTier.LOCAL);
			return;
		}
		if (uncacheable) {
			this.cache.counters().count(CacheResult.UNCACHEABLE, this.tier);
			return;
		}
		if (!stored && this.role == Role.LEADER && !this.admitted && this.decision != null && this.decision.storable()) {
			this.cache.counters().add(CacheCounters.ADMISSION_REJECTIONS, 1);
		}
		this.cache.counters().count(CacheResult.MISS, this.tier);
	}

	private ByteBuf takeBody() {
		ByteBuf body = this.body;
		this.body = null;
		return body;
	}

	private void stopCapturing(String reason) {
		this.capturing = false;
		this.refusal = reason;
		ByteBuf body = takeBody();
		if (body != null) {
			body.release();
		}
	}

	private void release() {
		ByteBuf body = takeBody();
		if (body != null) {
			body.release();
		}
		CachedResponse fallback = this.fallback;
		this.fallback = null;
		if (fallback != null) {
			fallback.release();
		}
	}

	/** @return why the response was not stored, or {@code null} */
	String refusal() {
		return this.refusal;
	}

	private static boolean isHopByHop(String name, String connection) {
		if (name.equalsIgnoreCase("connection") || name.equalsIgnoreCase("keep-alive")
				|| name.equalsIgnoreCase("proxy-connection") || name.equalsIgnoreCase("transfer-encoding")
				|| name.equalsIgnoreCase("te") || name.equalsIgnoreCase("trailer") || name.equalsIgnoreCase("upgrade")) {
			return true;
		}
		if (connection != null) {
			for (String listed : connection.split(",")) {
				if (listed.trim().equalsIgnoreCase(name)) {
					return true;
				}
			}
		}
		return false;
	}

	private static long parseLength(String value) {
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
