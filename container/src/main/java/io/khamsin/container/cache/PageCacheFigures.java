package io.khamsin.container.cache;

import java.util.Map;

/**
 * The page cache's figures at one moment, since start.
 *
 * @param requests the requests per result and tier
 * @param bytes the bytes the local tier holds now (keys, heads, bodies, variants)
 * @param maxBytes the local tier's limit
 * @param entries the entries the local tier holds now
 * @param evictions entries evicted for room
 * @param expirations entries dropped past their freshness and stale windows
 * @param admissionRejections cacheable renders not stored because their key had missed fewer times than the
 * admission threshold
 * @param singleFlightWaits requests that waited for another request's render of their key
 * @param singleFlightTimeouts waits that timed out, after which the request went to the application
 * @param singleFlightOverflows requests that found the waiters of their key full and went to the application
 * @param sharedErrors shared-tier operations that failed or timed out
 * @param sharedFormatMismatches shared-tier entries of another format version, taken as misses
 * @param stores renders stored
 * @param variants compressed variants made
 * @param notModified {@code 304}s answered from the cache (counted among the hits too)
 * @param purged entries dropped by purges
 */
public record PageCacheFigures(Map<CacheResult, Map<CacheTier, Long>> requests, long bytes, long maxBytes,
		long entries, long evictions, long expirations, long admissionRejections, long singleFlightWaits,
		long singleFlightTimeouts, long singleFlightOverflows, long sharedErrors, long sharedFormatMismatches,
		long stores, long variants, long notModified, long purged) {

	/**
	 * The requests of one result, on one tier.
	 * @param result the result
	 * @param tier the tier
	 * @return the count
	 */
	public long requests(CacheResult result, CacheTier tier) {
		return this.requests.get(result).get(tier);
	}

	/**
	 * The requests of one result, on every tier.
	 * @param result the result
	 * @return the count
	 */
	public long requests(CacheResult result) {
		return this.requests.get(result).values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * The share of the requests the cache could have answered that it did answer: hits (fresh and stale, both
	 * tiers) over hits and misses. Bypassed and uncacheable requests are not in it.
	 * @return the ratio, {@code 0} before any hit or miss
	 */
	public double hitRatio() {
		long hits = requests(CacheResult.HIT) + requests(CacheResult.STALE);
		long misses = requests(CacheResult.MISS);
		return (hits + misses == 0) ? 0 : (double) hits / (hits + misses);
	}

}
