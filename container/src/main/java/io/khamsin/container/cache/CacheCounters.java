package io.khamsin.container.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The page cache's counts, as {@code metrics.ReactorMetrics} keeps a reactor's: one block of plain counters per
 * thread that counts (each reactor, and the few other threads that complete shared-tier answers or evict), written
 * by that thread alone with release stores and summed when read. A count is a {@link FastThreadLocal} read, an
 * array store: no allocation, no lock, no map lookup.
 */
final class CacheCounters {

	private static final int RESULTS = CacheResult.values().length * CacheTier.values().length;

	static final int EVICTIONS = RESULTS;

	static final int EXPIRATIONS = RESULTS + 1;

	static final int ADMISSION_REJECTIONS = RESULTS + 2;

	static final int SINGLE_FLIGHT_WAITS = RESULTS + 3;

	static final int SINGLE_FLIGHT_TIMEOUTS = RESULTS + 4;

	static final int SINGLE_FLIGHT_OVERFLOWS = RESULTS + 5;

	static final int SHARED_ERRORS = RESULTS + 6;

	static final int SHARED_STORES = RESULTS + 7;

	static final int STORES = RESULTS + 8;

	static final int VARIANTS = RESULTS + 9;

	static final int NOT_MODIFIED = RESULTS + 10;

	static final int PURGED = RESULTS + 11;

	static final int SHARED_FORMAT_MISMATCHES = RESULTS + 12;

	private static final int COUNTERS = RESULTS + 13;

	// Padding on both sides keeps two threads' counters off the same cache line.
	private static final int PAD = 8;

	private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

	private final List<long[]> blocks = new CopyOnWriteArrayList<>();

	private final FastThreadLocal<long[]> local = new FastThreadLocal<>() {

		@Override
		protected long[] initialValue() {
			long[] block = new long[PAD + COUNTERS + PAD];
			CacheCounters.this.blocks.add(block);
			return block;
		}

	};

	static int result(CacheResult result, CacheTier tier) {
		return result.ordinal() * CacheTier.values().length + tier.ordinal();
	}

	void count(CacheResult result, CacheTier tier) {
		add(result(result, tier), 1);
	}

	void add(int counter, long delta) {
		long[] block = this.local.get();
		int index = PAD + counter;
		COUNTS.setRelease(block, index, block[index] + delta);
	}

	long get(int counter) {
		long sum = 0;
		for (long[] block : this.blocks) {
			sum += (long) COUNTS.getAcquire(block, PAD + counter);
		}
		return sum;
	}

	long get(CacheResult result, CacheTier tier) {
		return get(result(result, tier));
	}

	/**
	 * The figures of the counts, with what the local tier holds.
	 * @param bytes the bytes it holds
	 * @param maxBytes the most it may hold
	 * @param entries the keys it holds
	 * @return the figures
	 */
	PageCacheFigures figures(long bytes, long maxBytes, long entries) {
		Map<CacheResult, Map<CacheTier, Long>> requests = new EnumMap<>(CacheResult.class);
		for (CacheResult result : CacheResult.values()) {
			Map<CacheTier, Long> tiers = new EnumMap<>(CacheTier.class);
			for (CacheTier tier : CacheTier.values()) {
				tiers.put(tier, get(result, tier));
			}
			requests.put(result, Collections.unmodifiableMap(tiers));
		}
		return new PageCacheFigures(Collections.unmodifiableMap(requests), bytes, maxBytes, entries, get(EVICTIONS),
				get(EXPIRATIONS), get(ADMISSION_REJECTIONS), get(SINGLE_FLIGHT_WAITS), get(SINGLE_FLIGHT_TIMEOUTS),
				get(SINGLE_FLIGHT_OVERFLOWS), get(SHARED_ERRORS), get(SHARED_FORMAT_MISMATCHES), get(STORES),
				get(VARIANTS), get(NOT_MODIFIED), get(PURGED));
	}

}
