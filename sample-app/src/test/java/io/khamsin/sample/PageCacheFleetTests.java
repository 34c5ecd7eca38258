package io.khamsin.sample;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.CacheTier;
import io.khamsin.container.cache.PageCache;
import io.khamsin.container.cache.redis.RedisServer;
import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample app sharing the page cache's fleet tier on a real Redis (Debian's
 * {@code redis-server}, started here on a free port), as two instances behind one name would.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PageCacheFleetTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	@Test
	void instancesShareWhatEitherRenderedHearEachOthersPurgesAndRideOutARedisOutage() {
		String names = "fleet-" + UUID.randomUUID() + ":";
		try (RedisServer redis = RedisServer.start()) {
			String[] shared = { "--khamsin.page-cache.shared.enabled=true", "--spring.data.redis.host=127.0.0.1",
					"--spring.data.redis.port=" + redis.port(), "--khamsin.page-cache.shared.timeout=300ms",
					"--khamsin.page-cache.shared.key-prefix=" + names + "page:",
					"--khamsin.page-cache.shared.purge-channel=" + names + "purge" };
			RedisClient rawClient = RedisClient.create(redis.uri());
			try (CachingSampleApp a = new CachingSampleApp(shared); CachingSampleApp b = new CachingSampleApp(shared);
					StatefulRedisConnection<String, String> raw = rawClient.connect()) {
				PageCache cacheA = a.bean(PageCache.class);
				PageCache cacheB = b.bean(PageCache.class);
				// B holds a page of its own and A purges it until B hears: both are then subscribed.
				b.curl("/page/probe");
				await().atMost(WAIT).until(() -> {
					cacheA.purgeKey("/page/probe");
					return cacheB.figures().purged() >= 1;
				});

				CommandLine.Result rendered = a.curl("/page/7");
				assertThat(CachingSampleApp.fromCache(rendered)).isFalse();
				await().atMost(WAIT).until(() -> raw.sync().exists(names + "page:http://shop.example/page/7#") == 1);
				double rendersOnB = b.renders();
				CommandLine.Result fromShared = b.curl("/page/7");
				assertThat(CachingSampleApp.status(fromShared)).isEqualTo(200);
				assertThat(CachingSampleApp.fromCache(fromShared)).isTrue();
				assertThat(b.renders()).as("B did not render what A had").isEqualTo(rendersOnB);
				assertThat(cacheB.figures().requests(CacheResult.HIT, CacheTier.SHARED)).isEqualTo(1);

				CommandLine.Result purge = a.curl("/actuator/pagecache?key=/page/7", "-X", "DELETE");
				assertThat(CachingSampleApp.status(purge)).isEqualTo(200);
				await().atMost(WAIT).until(() -> cacheB.figures().purged() >= 2);
				assertThat(raw.sync().exists(names + "page:http://shop.example/page/7#")).isZero();
				assertThat(CachingSampleApp.fromCache(b.curl("/page/7"))).as("B serves no purged page").isFalse();
				assertThat(b.renders()).isEqualTo(rendersOnB + 1);

				redis.stop();
				for (CachingSampleApp instance : new CachingSampleApp[] { a, b }) {
					CommandLine.Result fresh = instance.curl("/page/during-outage");
					assertThat(CachingSampleApp.status(fresh)).isEqualTo(200);
					assertThat(CachingSampleApp.fromCache(instance.curl("/page/during-outage")))
						.as("its own memory still serves").isTrue();
					assertThat(CachingSampleApp.status(instance.curl("/page/7"))).isEqualTo(200);
					PageCache cache = instance.bean(PageCache.class);
					await().atMost(WAIT).until(() -> cache.figures().sharedErrors() >= 1);
					assertThat(instance.curl("/actuator/pagecache").output()).containsPattern("\"sharedErrors\":[1-9]");
				}
			}
			finally {
				rawClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

}
