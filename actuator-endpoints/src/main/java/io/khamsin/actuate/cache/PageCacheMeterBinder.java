package io.khamsin.actuate.cache;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.CacheTier;
import io.khamsin.container.cache.PageCache;
import io.khamsin.container.cache.PageCacheFigures;

/**
 * Binds the page cache's figures to a {@link MeterRegistry}, read on scrape from the engine's counters:
 * {@code khamsin.pagecache.requests} tagged {@code result} and {@code tier}, {@code khamsin.pagecache.hit.ratio},
 * {@code .bytes}, {@code .entries}, {@code .evictions}, {@code .admission.rejections},
 * {@code .singleflight.waits}, {@code .singleflight.timeouts} and {@code .shared.errors}.
 */
public final class PageCacheMeterBinder implements MeterBinder {

	private final PageCache cache;

	/**
	 * Create a binder.
	 * @param cache the page cache
	 */
	public PageCacheMeterBinder(PageCache cache) {
		if (cache == null) {
			throw new IllegalArgumentException("cache must not be null");
		}
		this.cache = cache;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (CacheResult result : CacheResult.values()) {
			for (CacheTier tier : CacheTier.values()) {
				FunctionCounter.builder("khamsin.pagecache.requests", this.cache, (c) -> c.figures().requests(result, tier))
					.description("Requests the page cache looked up, by what it did and the tier that answered")
					.tag("result", result.tag())
					.tag("tier", tier.tag())
					.register(registry);
			}
		}
		Gauge.builder("khamsin.pagecache.hit.ratio", this.cache, (c) -> c.figures().hitRatio())
			.description("Hits (fresh and stale) over hits and misses, since start")
			.register(registry);
		gauge(registry, "khamsin.pagecache.bytes", "Bytes the local tier holds", PageCacheFigures::bytes, "bytes");
		gauge(registry, "khamsin.pagecache.entries", "Entries the local tier holds", PageCacheFigures::entries, null);
		counter(registry, "khamsin.pagecache.evictions", "Entries evicted for room", PageCacheFigures::evictions);
		counter(registry, "khamsin.pagecache.admission.rejections",
				"Cacheable renders not stored because their key had missed fewer times than the admission threshold",
				PageCacheFigures::admissionRejections);
		counter(registry, "khamsin.pagecache.singleflight.waits",
				"Requests that waited for another request's render of their key", PageCacheFigures::singleFlightWaits);
		counter(registry, "khamsin.pagecache.singleflight.timeouts",
				"Waits for another request's render that timed out", PageCacheFigures::singleFlightTimeouts);
		counter(registry, "khamsin.pagecache.shared.errors", "Shared-tier operations that failed or timed out",
				PageCacheFigures::sharedErrors);
	}

	private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<PageCacheFigures> value,
			String unit) {
		Gauge.Builder<PageCache> gauge = Gauge.builder(name, this.cache, (c) -> value.applyAsDouble(c.figures()))
			.description(description);
		if (unit != null) {
			gauge.baseUnit(unit);
		}
		gauge.register(registry);
	}

	private void counter(MeterRegistry registry, String name, String description,
			ToDoubleFunction<PageCacheFigures> value) {
		FunctionCounter.builder(name, this.cache, (c) -> value.applyAsDouble(c.figures()))
			.description(description)
			.register(registry);
	}

}
