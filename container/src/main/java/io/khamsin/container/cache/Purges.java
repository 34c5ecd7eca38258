package io.khamsin.container.cache;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The purges of one page cache: each drops what it names from this instance's memory and, with a shared tier,
 * from the store and every other instance. Each purge applied here, made here or heard from another instance, is
 * counted, so that a read of the shared tier that a purge overtook knows not to keep what it read.
 */
final class Purges {

	private final LocalTier local;

	private final SharedTierClient shared;

	private final CacheCounters counters;

	private final AtomicLong applied = new AtomicLong();

	/**
	 * @param local the local tier
	 * @param shared the shared tier, or {@code null}
	 * @param counters where the entries dropped are counted
	 */
	Purges(LocalTier local, SharedTierClient shared, CacheCounters counters) {
		this.local = local;
		this.shared = shared;
		this.counters = counters;
	}

	/**
	 * Make a purge: drop it here, and from the shared tier, which publishes it to every instance.
	 * @param purge the purge
	 * @return the entries dropped from this instance's memory
	 */
	long purge(Purge purge) {
		long dropped = applyLocally(purge);
		if (this.shared != null) {
			this.shared.purge(purge);
		}
		return dropped;
	}

	/**
	 * Drop what a purge names from this instance's memory: a purge made here, or heard from another instance.
	 * @param purge the purge
	 * @return the entries dropped
	 */
	long applyLocally(Purge purge) {
		this.applied.incrementAndGet();
		long dropped = this.local.drop(purge);
		this.counters.add(CacheCounters.PURGED, dropped);
		return dropped;
	}

	/**
	 * How many purges were applied here so far: a read that began at one count and ends at another was overtaken
	 * by a purge.
	 * @return the count
	 */
	long applied() {
		return this.applied.get();
	}

}
