package io.khamsin.sample;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.CacheTier;
import io.khamsin.container.cache.PageCache;
import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's product pages through the page cache its {@code application.yml} enables, as curl, the actuator
 * endpoint and a Prometheus scrape see them.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PageCacheTests {

	private static CachingSampleApp app;

	@BeforeAll
	static void start() {
		app = new CachingSampleApp();
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static String body(CommandLine.Result result) {
		String output = result.output();
		return output.substring(output.indexOf("\r\n\r\n") + 4);
	}

	@Test
	void aProductPageIsRenderedOnceThenAnsweredFromTheCache() {
		double before = app.renders();
		CommandLine.Result miss = app.curl("/page/42");
		CommandLine.Result hit = app.curl("/page/42");
		assertThat(CachingSampleApp.status(miss)).isEqualTo(200);
		assertThat(CachingSampleApp.status(hit)).isEqualTo(200);
		assertThat(CachingSampleApp.fromCache(miss)).isFalse();
		assertThat(CachingSampleApp.fromCache(hit)).isTrue();
		assertThat(hit.output()).containsIgnoringCase("cache-control: public, max-age=60")
			.containsIgnoringCase("content-type: text/html");
		assertThat(body(hit)).isEqualTo(body(miss)).contains("<title>Product 42</title>");
		assertThat(body(hit).length()).as("a realistic product page").isBetween(48 * 1024, 52 * 1024);
		assertThat(app.renders() - before).isEqualTo(1);
	}

	@Test
	void purgesThroughTheActuatorEndpointAndThePageCacheBeanDropWhatTheyName() {
		for (String page : new String[] { "/page/p1", "/page/p2", "/page/p3" }) {
			app.curl(page);
		}
		CommandLine.Result byKey = app.curl("/actuator/pagecache?key=/page/p1", "-X", "DELETE");
		assertThat(CachingSampleApp.status(byKey)).isEqualTo(200);
		assertThat(body(byKey)).contains("\"by\":\"key\"", "\"purged\":1");
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p1"))).isFalse();
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p2"))).isTrue();
		assertThat(body(app.curl("/actuator/pagecache?tag=product-p2", "-X", "DELETE"))).contains("\"purged\":1");
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p2"))).isFalse();
		assertThat(body(app.curl("/actuator/pagecache?prefix=/page/p", "-X", "DELETE"))).contains("\"purged\":3");
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p3"))).isFalse();
		app.curl("/page/p1");
		assertThat(body(app.curl("/actuator/pagecache?all=true", "-X", "DELETE"))).contains("\"by\":\"all\"");
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p1"))).isFalse();
		assertThat(app.bean(PageCache.class).purgeKey("/page/p1")).isEqualTo(1);
		assertThat(CachingSampleApp.fromCache(app.curl("/page/p1"))).isFalse();
		CommandLine.Result nothing = app.curl("/actuator/pagecache", "-X", "DELETE");
		assertThat(CachingSampleApp.status(nothing)).isEqualTo(400);
		assertThat(body(nothing)).contains("Give exactly one of key, prefix, tag or all=true");
	}

	@Test
	void theHitRatioInPrometheusIsTheHitsOverHitsAndMissesTheClientSaw() {
		PageCache cache = app.bean(PageCache.class);
		cache.purgeAll();
		long hitsBefore = cache.figures().requests(CacheResult.HIT) + cache.figures().requests(CacheResult.STALE);
		long missesBefore = cache.figures().requests(CacheResult.MISS);
		long hits = hitsBefore;
		long misses = missesBefore;
		for (int i = 0; i < 30; i++) {
			if (CachingSampleApp.fromCache(app.curl("/page/ratio-" + (i % 4)))) {
				hits++;
			}
			else {
				misses++;
			}
		}
		assertThat(misses - missesBefore).isEqualTo(4);
		String scrape = app.scrape();
		double ratio = ObservedSampleApp.sample(scrape, "khamsin_pagecache_hit_ratio", "");
		assertThat(ratio).isCloseTo((double) hits / (hits + misses), org.assertj.core.data.Offset.offset(1e-9));
		assertThat(ObservedSampleApp.sample(scrape, "khamsin_pagecache_requests_total",
				"result=\"hit\",tier=\"local\"")).isEqualTo((double) cache.figures().requests(CacheResult.HIT, CacheTier.LOCAL));
		assertThat(ObservedSampleApp.sample(scrape, "khamsin_pagecache_requests_total",
				"result=\"miss\",tier=\"local\"")).isEqualTo((double) misses);
	}

	@Test
	void otherRoutesAreNotLookedUp() {
		PageCache cache = app.bean(PageCache.class);
		long bypassed = cache.figures().requests(CacheResult.BYPASS);
		long uncacheable = cache.figures().requests(CacheResult.UNCACHEABLE);
		app.curl("/plaintext");
		app.curl("/plaintext");
		assertThat(cache.figures().requests(CacheResult.BYPASS)).isEqualTo(bypassed);
		assertThat(cache.figures().requests(CacheResult.UNCACHEABLE)).isEqualTo(uncacheable);
	}

}
