package io.khamsin.actuate.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.CacheTier;
import io.khamsin.container.cache.PageCache;
import io.khamsin.container.cache.PageCacheFigures;
import io.khamsin.container.cache.TopKey;

/**
 * {@link WebEndpoint @WebEndpoint} of the page cache: {@code GET /actuator/pagecache} answers its figures and the
 * keys with the most hits; {@code DELETE /actuator/pagecache} with one of {@code key}, {@code prefix}, {@code tag} or
 * {@code all=true} purges (on every instance, with a shared tier).
 */
@WebEndpoint(id = "pagecache")
public class PageCacheEndpoint {

	/** How many top keys {@code GET} lists. */
	static final int TOP_KEYS = 20;

	private final PageCache cache;

	/**
	 * Create the endpoint.
	 * @param cache the page cache
	 */
	public PageCacheEndpoint(PageCache cache) {
		if (cache == null) {
			throw new IllegalArgumentException("cache must not be null");
		}
		this.cache = cache;
	}

	@ReadOperation
	public PageCacheDescriptor pageCache() {
		PageCacheFigures figures = this.cache.figures();
		Map<String, Map<String, Long>> requests = new LinkedHashMap<>();
		for (CacheResult result : CacheResult.values()) {
			Map<String, Long> tiers = new LinkedHashMap<>();
			for (CacheTier tier : CacheTier.values()) {
				tiers.put(tier.tag(), figures.requests(result, tier));
			}
			requests.put(result.tag(), tiers);
		}
		return new PageCacheDescriptor(figures.hitRatio(), requests, figures.bytes(), figures.maxBytes(),
				figures.entries(), figures.evictions(), figures.expirations(), figures.admissionRejections(),
				figures.singleFlightWaits(), figures.singleFlightTimeouts(), figures.sharedErrors(), figures.stores(),
				figures.variants(), figures.notModified(), figures.purged(), this.cache.topKeys(TOP_KEYS));
	}

	@DeleteOperation
	public WebEndpointResponse<Object> purge(@Nullable String key, @Nullable String prefix, @Nullable String tag,
			@Nullable Boolean all) {
		List<String> given = new ArrayList<>();
		if (key != null) {
			given.add("key");
		}
		if (prefix != null) {
			given.add("prefix");
		}
		if (tag != null) {
			given.add("tag");
		}
		if (Boolean.TRUE.equals(all)) {
			given.add("all");
		}
		if (given.size() != 1) {
			return new WebEndpointResponse<>(
					"Give exactly one of key, prefix, tag or all=true (given: " + (given.isEmpty() ? "none" : given) + ")",
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		if ((key != null && key.isBlank()) || (prefix != null && prefix.isBlank()) || (tag != null && tag.isBlank())) {
			return new WebEndpointResponse<>(given.get(0) + " must not be blank", WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		long purged = (key != null) ? this.cache.purgeKey(key)
				: (prefix != null) ? this.cache.purgePrefix(prefix)
				: (tag != null) ? this.cache.purgeTag(tag) : this.cache.purgeAll();
		String value = (key != null) ? key : (prefix != null) ? prefix : (tag != null) ? tag : "";
		return new WebEndpointResponse<>(new PurgeDescriptor(given.get(0), value, purged));
	}

	/**
	 * What {@code GET /actuator/pagecache} answers.
	 *
	 * @param hitRatio hits over hits and misses
	 * @param requests requests by result and tier
	 * @param bytes bytes held
	 * @param maxBytes the local tier's limit
	 * @param entries entries held
	 * @param evictions entries evicted for room
	 * @param expirations entries expired
	 * @param admissionRejections cacheable renders not stored under the admission threshold
	 * @param singleFlightWaits requests that waited for another request's render
	 * @param singleFlightTimeouts waits that timed out
	 * @param sharedErrors failed or timed-out shared-tier operations
	 * @param stores renders stored
	 * @param variants compressed variants made
	 * @param notModified 304s answered from the cache
	 * @param purged entries purged
	 * @param topKeys the keys with the most hits
	 */
	public record PageCacheDescriptor(double hitRatio, Map<String, Map<String, Long>> requests, long bytes,
			long maxBytes, long entries, long evictions, long expirations, long admissionRejections,
			long singleFlightWaits, long singleFlightTimeouts, long sharedErrors, long stores, long variants,
			long notModified, long purged, List<TopKey> topKeys) {

	}

	/**
	 * What a purge answers.
	 *
	 * @param by key, prefix, tag or all
	 * @param value the key, prefix or tag
	 * @param purged entries dropped from this instance's memory
	 */
	public record PurgeDescriptor(String by, String value, long purged) {

	}

}
