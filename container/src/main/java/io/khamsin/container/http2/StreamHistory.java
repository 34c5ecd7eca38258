package io.khamsin.container.http2;

import java.util.Arrays;

/**
 * What became of a client's most recent streams, which Netty's connection forgets once they close: whether an
 * identifier at or below the highest one opened was opened at all, and whether its stream ended in a reset. Kept for
 * the last {@link #WINDOW} client-initiated (odd) identifiers in two bit sets, so that a connection holds 256 bytes of
 * it however many streams it opens; older identifiers are {@link Past#FORGOTTEN}. Used on the connection's event loop
 * only.
 */
final class StreamHistory {

	/** How many of the latest client stream identifiers are remembered. */
	static final int WINDOW = 1024;

	/** What became of a stream identifier. */
	enum Past {

		/** Above every identifier opened so far: a new stream. */
		IDLE,

		/** Below the highest identifier opened, and skipped: it can no longer be opened (RFC 9113, section 5.1.1). */
		NEVER_OPENED,

		/** Opened, and closed without a reset (or still open). */
		CLOSED,

		/** Opened, and reset by either side. */
		RESET,

		/** Too old to be remembered. */
		FORGOTTEN

	}

	private final long[] opened = new long[WINDOW / 64];

	private final long[] reset = new long[WINDOW / 64];

	private int highest;

	/**
	 * A client stream was opened (or refused, which the server answers with a reset).
	 * @param id its identifier, odd
	 */
	void opened(int id) {
		if (id > this.highest) {
			advanceTo(id);
		}
		if (remembers(id)) {
			set(this.opened, id);
		}
	}

	/**
	 * A client stream was reset, by the client or by the server.
	 * @param id its identifier
	 */
	void reset(int id) {
		if (id <= this.highest && remembers(id)) {
			set(this.reset, id);
		}
	}

	/**
	 * What became of an identifier.
	 * @param id the identifier, odd
	 * @return its past
	 */
	Past past(int id) {
		if (id > this.highest) {
			return Past.IDLE;
		}
		if (!remembers(id)) {
			return Past.FORGOTTEN;
		}
		if (!get(this.opened, id)) {
			return Past.NEVER_OPENED;
		}
		return get(this.reset, id) ? Past.RESET : Past.CLOSED;
	}

	/** @return the highest client identifier opened, {@code 0} when none */
	int highest() {
		return this.highest;
	}

	private boolean remembers(int id) {
		return this.highest - id < 2 * WINDOW;
	}

	private void advanceTo(int id) {
		// The identifiers between the highest and this one were skipped: they can never be opened.
		if (id - this.highest >= 2 * WINDOW) {
			Arrays.fill(this.opened, 0);
			Arrays.fill(this.reset, 0);
		}
		else {
			for (int skipped = (this.highest == 0) ? 1 : this.highest + 2; skipped <= id; skipped += 2) {
				clear(this.opened, skipped);
				clear(this.reset, skipped);
			}
		}
		this.highest = id;
	}

	private static int slot(int id) {
		return (id >>> 1) & (WINDOW - 1);
	}

	private static void set(long[] bits, int id) {
		int slot = slot(id);
		bits[slot >>> 6] |= 1L << slot;
	}

	private static void clear(long[] bits, int id) {
		int slot = slot(id);
		bits[slot >>> 6] &= ~(1L << slot);
	}

	private static boolean get(long[] bits, int id) {
		int slot = slot(id);
		return (bits[slot >>> 6] & (1L << slot)) != 0;
	}

}
