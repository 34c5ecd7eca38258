package io.khamsin.container.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;

/**
 * The page cache's memory in this instance: responses and {@link VaryMarker}s by key in Caffeine (W-TinyLFU,
 * weighed in bytes, each kept for as long as it may be served, fresh or stale), and the keys whose last render was
 * not cacheable, remembered for {@link #UNCACHEABLE_MEMORY}. Evictions and expirations are counted; an entry
 * leaves through {@link Stored#dropped()}, which lets its memory go once no answer holds it.
 */
final class LocalTier {

	/** How long a key whose render was not cacheable goes straight to the application (no waiting for renders). */
	static final Duration UNCACHEABLE_MEMORY = Duration.ofSeconds(10);

	private final Cache<String, Stored> entries;

	private final Cache<String, Boolean> uncacheable;

	private final CacheCounters counters;

	LocalTier(long maxSize, LongSupplier clock, CacheCounters counters) {
		this.counters = counters;
		this.entries = Caffeine.newBuilder()
			.maximumWeight(maxSize)
			.<String, Stored>weigher((key, stored) -> stored.weight() + 2 * key.length())
			.expireAfter(new Expiry<String, Stored>() {

				@Override
				public long expireAfterCreate(String key, Stored stored, long now) {
					return stored.keepNanos(clock.getAsLong());
				}

				@Override
				public long expireAfterUpdate(String key, Stored stored, long now, long current) {
					return stored.keepNanos(clock.getAsLong());
				}

				@Override
				public long expireAfterRead(String key, Stored stored, long now, long current) {
					return current;
				}

			})
			.ticker(() -> clock.getAsLong() * 1_000_000L)
			.executor(Runnable::run)
			.removalListener((String key, Stored stored, RemovalCause cause) -> dropped(stored, cause))
			.build();
		this.uncacheable = Caffeine.newBuilder()
			.maximumSize(10_000)
			.expireAfterWrite(UNCACHEABLE_MEMORY)
			.ticker(() -> clock.getAsLong() * 1_000_000L)
			.executor(Runnable::run)
			.build();
	}

	Stored get(String key) {
		return this.entries.getIfPresent(key);
	}

	void put(String key, Stored stored) {
		this.entries.put(key, stored);
	}

	/** Put an entry again, if it is still the one held, so that Caffeine weighs it with a new variant. */
	void reweigh(CachedResponse entry) {
		this.entries.asMap().replace(entry.key(), entry, entry);
	}

	/** @return whether the key's last render was not cacheable, within {@link #UNCACHEABLE_MEMORY} */
	boolean recentlyUncacheable(String key) {
		return this.uncacheable.getIfPresent(key) != null;
	}

	void markUncacheable(String key) {
		this.uncacheable.put(key, Boolean.TRUE);
	}

	/**
	 * Drop what a purge names.
	 * @param purge the purge
	 * @return the responses dropped
	 */
	long drop(Purge purge) {
		long dropped = 0;
		Map<String, Stored> map = this.entries.asMap();
		for (Map.Entry<String, Stored> held : map.entrySet()) {
			Stored stored = held.getValue();
			boolean matches = (purge.kind() == Purge.Kind.TAG)
					? stored instanceof CachedResponse entry && entry.tags().contains(purge.value())
					: purge.matchesPage(stored.page());
			if (matches && map.remove(held.getKey(), stored) && stored instanceof CachedResponse) {
				dropped++;
			}
		}
		if (purge.kind() == Purge.Kind.ALL) {
			this.uncacheable.invalidateAll();
		}
		return dropped;
	}

	/** @return the bytes held, as weighed */
	long bytes() {
		return this.entries.policy().eviction().map((eviction) -> eviction.weightedSize().orElse(0)).orElse(0L);
	}

	/** @return how many keys are held, estimated */
	long size() {
		return this.entries.estimatedSize();
	}

	/**
	 * The responses with the most hits.
	 * @param limit how many at most
	 * @return them, most hits first
	 */
	List<TopKey> topKeys(int limit) {
		if (limit <= 0) {
			return List.of();
		}
		Comparator<TopKey> byHits = Comparator.comparingLong(TopKey::hits);
		PriorityQueue<TopKey> top = new PriorityQueue<>(limit + 1, byHits);
		for (Stored stored : this.entries.asMap().values()) {
			if (stored instanceof CachedResponse entry) {
				long hits = entry.hits();
				if (top.size() < limit || hits > top.peek().hits()) {
					top.add(new TopKey(entry.key(), hits, entry.weight()));
					if (top.size() > limit) {
						top.poll();
					}
				}
			}
		}
		List<TopKey> keys = new ArrayList<>(top);
		keys.sort(byHits.reversed());
		return keys;
	}

	/** Run pending maintenance (evictions, expirations) now. */
	void cleanUp() {
		this.entries.cleanUp();
	}

	/** Drop every entry, letting its memory go. */
	void clear() {
		this.entries.invalidateAll();
		this.entries.cleanUp();
	}

	private void dropped(Stored stored, RemovalCause cause) {
		if (stored == null) {
			return;
		}
		if (cause == RemovalCause.REPLACED && this.entries.asMap().get(keyOf(stored)) == stored) {
			// The same entry put again to weigh a new variant: it stays.
			return;
		}
		stored.dropped();
		if (stored instanceof CachedResponse) {
			if (cause == RemovalCause.SIZE) {
				this.counters.add(CacheCounters.EVICTIONS, 1);
			}
			else if (cause == RemovalCause.EXPIRED) {
				this.counters.add(CacheCounters.EXPIRATIONS, 1);
			}
		}
	}

	private static String keyOf(Stored stored) {
		return (stored instanceof CachedResponse entry) ? entry.key() : stored.page();
	}

}
