package io.khamsin.container.cache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.cache.CacheRequest;
import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.CacheTier;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.SharedTierConfig;
import io.khamsin.container.cache.Ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the page cache, each with its own local tier, sharing a real Redis.
 */
class SharedTierTests {

	private static RedisServer redis;

	private static RedisClient rawClient;

	private static StatefulRedisConnection<String, String> raw;

	private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);

	private SharedTierConfig shared;

	private DefaultPageCache a;

	private DefaultPageCache b;

	@BeforeAll
	static void startRedis() {
		redis = RedisServer.start();
		rawClient = RedisClient.create(redis.uri());
		raw = rawClient.connect();
	}

	@AfterAll
	static void stopRedis() {
		if (raw != null) {
			raw.close();
			rawClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		if (redis != null) {
			redis.close();
		}
	}

	@BeforeEach
	void instances() {
		String name = "test:" + UUID.randomUUID() + ":";
		this.shared = SharedTierConfig.defaults().withEnabled(true).withTimeout(Duration.ofMillis(500))
			.withNames(name + "page:", name + "purge");
		this.a = instance(redis, this.shared);
		this.b = instance(redis, this.shared);
	}

	@AfterEach
	void close() {
		if (this.a != null) {
			this.a.close();
		}
		if (this.b != null) {
			this.b.close();
		}
		this.loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	private DefaultPageCache instance(RedisServer server, SharedTierConfig shared) {
		return instance(server, shared, true);
	}

	private DefaultPageCache instance(RedisServer server, SharedTierConfig shared, boolean localTier) {
		LettuceSharedTier tier = LettuceSharedTier.create(RedisURI.create(server.uri()), shared);
		await().atMost(Duration.ofSeconds(30)).until(tier::isSubscribed);
		return DefaultPageCache
			.builder(PageCacheConfig.builder().enabled(true).shared(shared).localTier(localTier).build())
			.sharedTier(tier)
			.build();
	}

	private static CacheRequest get(String uri) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders().set("Host", "shop.example");
		return CacheRequest.of(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri, headers), "https");
	}

	private Lookup lookup(DefaultPageCache cache, String uri) {
		EventLoop loop = this.loops.next();
		CompletableFuture<Lookup> answer = new CompletableFuture<>();
		loop.execute(() -> {
			Lookup lookup = cache.lookup(get(uri), loop);
			if (lookup instanceof Lookup.Deferred deferred) {
				deferred.whenReady(answer::complete);
			}
			else {
				answer.complete(lookup);
			}
		});
		try {
			return answer.get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

	private static void render(Lookup lookup, String body, String... headers) {
		assertThat(lookup).isInstanceOf(Lookup.Miss.class);
		Ticket ticket = ((Lookup.Miss) lookup).ticket();
		HttpHeaders head = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		for (int i = 0; i < headers.length; i += 2) {
			head.add(headers[i], headers[i + 1]);
		}
		head.setInt("Content-Length", body.length());
		ticket.onHead(200, head);
		var part = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
		ticket.onBody(part);
		part.release();
		ticket.complete();
	}

	private static String body(Lookup lookup) {
		assertThat(lookup).isInstanceOf(Lookup.Hit.class);
		Lookup.Hit hit = (Lookup.Hit) lookup;
		try {
			return hit.body().toString(StandardCharsets.UTF_8);
		}
		finally {
			hit.release();
		}
	}

	private static void abandon(Lookup lookup) {
		if (lookup instanceof Lookup.Miss miss) {
			miss.ticket().abandon();
		}
		else if (lookup instanceof Lookup.Hit hit) {
			hit.release();
		}
	}

	private String redisKey(String page) {
		return this.shared.keyPrefix() + page + "#";
	}

	private void awaitInRedis(String page) {
		await().atMost(Duration.ofSeconds(30)).until(() -> raw.sync().exists(redisKey(page)) == 1);
	}

	@Test
	void instanceBAnswersFromTheSharedTierWhatInstanceARendered() {
		render(lookup(this.a, "/page/1"), "rendered on A", "Cache-Control", "max-age=60");
		awaitInRedis("https://shop.example/page/1");
		RedisCommands<String, String> commands = raw.sync();
		assertThat(commands.pttl(redisKey("https://shop.example/page/1"))).as("the lifetime carries over")
			.isBetween(1L, 60_000L);
		Lookup fromShared = lookup(this.b, "/page/1");
		assertThat(((Lookup.Hit) fromShared).tier()).isEqualTo(CacheTier.SHARED);
		assertThat(body(fromShared)).isEqualTo("rendered on A");
		Lookup fromLocal = lookup(this.b, "/page/1");
		assertThat(((Lookup.Hit) fromLocal).tier()).as("then from B's own memory").isEqualTo(CacheTier.LOCAL);
		assertThat(body(fromLocal)).isEqualTo("rendered on A");
		assertThat(this.b.figures().requests(CacheResult.HIT, CacheTier.SHARED)).isEqualTo(1);
		assertThat(this.b.figures().requests(CacheResult.HIT, CacheTier.LOCAL)).isEqualTo(1);
		assertThat(this.a.figures().requests(CacheResult.MISS, CacheTier.SHARED)).isEqualTo(1);
		assertThat(this.b.figures().sharedErrors()).isZero();
	}

	@Test
	void withoutALocalTierEveryHitIsReadFromTheSharedTierAndNothingStaysInMemory() {
		DefaultPageCache first = instance(redis, this.shared, false);
		DefaultPageCache second = instance(redis, this.shared, false);
		try {
			render(lookup(first, "/page/1"), "rendered once", "Cache-Control", "max-age=60");
			awaitInRedis("https://shop.example/page/1");
			for (DefaultPageCache instance : new DefaultPageCache[] { first, first, second }) {
				Lookup hit = lookup(instance, "/page/1");
				assertThat(((Lookup.Hit) hit).tier()).isEqualTo(CacheTier.SHARED);
				assertThat(body(hit)).isEqualTo("rendered once");
			}
			assertThat(first.figures().entries()).isZero();
			assertThat(first.figures().bytes()).isZero();
			assertThat(first.figures().requests(CacheResult.HIT, CacheTier.SHARED)).isEqualTo(2);
			assertThat(second.figures().requests(CacheResult.HIT, CacheTier.SHARED)).isEqualTo(1);
			first.purgeKey("/page/1");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> raw.sync().exists(redisKey("https://shop.example/page/1")) == 0);
			Lookup purged = lookup(second, "/page/1");
			assertThat(purged).isInstanceOf(Lookup.Miss.class);
			abandon(purged);
		}
		finally {
			first.close();
			second.close();
		}
	}

	@Test
	void aPurgeOnAReachesBAndNoInstanceServesThePurgedPageAfterwards() {
		render(lookup(this.a, "/page/1"), "one", "Cache-Control", "max-age=60", "Cache-Tag", "catalogue");
		render(lookup(this.a, "/page/2"), "two", "Cache-Control", "max-age=60", "Cache-Tag", "catalogue");
		render(lookup(this.a, "/news/1"), "news", "Cache-Control", "max-age=60");
		awaitInRedis("https://shop.example/news/1");
		awaitInRedis("https://shop.example/page/2");
		for (String page : new String[] { "/page/1", "/page/2", "/news/1" }) {
			assertThat(body(lookup(this.b, page))).as(page).isNotEmpty();
		}
		this.a.purgeKey("https://shop.example/page/1");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.b.figures().purged() >= 1);
		Lookup purged = lookup(this.b, "/page/1");
		assertThat(purged).as("gone from B's memory and from Redis").isInstanceOf(Lookup.Miss.class);
		abandon(purged);
		assertThat(raw.sync().exists(redisKey("https://shop.example/page/1"))).isZero();
		this.a.purgeTag("catalogue");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.b.figures().purged() >= 2);
		Lookup byTag = lookup(this.b, "/page/2");
		assertThat(byTag).isInstanceOf(Lookup.Miss.class);
		abandon(byTag);
		this.b.purgePrefix("/news/");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.a.figures().purged() >= 3);
		Lookup byPrefix = lookup(this.a, "/news/1");
		assertThat(byPrefix).as("a purge on B reaches A too").isInstanceOf(Lookup.Miss.class);
		abandon(byPrefix);
		assertThat(raw.sync().keys(this.shared.keyPrefix() + "*")).allMatch((key) -> key.contains("tag:"));
	}

	@Test
	void anEntryOfAnotherFormatVersionIsAMiss() {
		byte[] future = { 0x4B, 0x50, 0x43, 0x00, 99, 1, 1, 2, 3 };
		try (StatefulRedisConnection<String, byte[]> bytes = rawClient
			.connect(io.lettuce.core.codec.RedisCodec.of(io.lettuce.core.codec.StringCodec.UTF8,
					io.lettuce.core.codec.ByteArrayCodec.INSTANCE))) {
			bytes.sync().set(redisKey("https://shop.example/page/9"), future);
		}
		Lookup lookup = lookup(this.b, "/page/9");
		assertThat(lookup).isInstanceOf(Lookup.Miss.class);
		assertThat(this.b.figures().sharedFormatMismatches()).isEqualTo(1);
		assertThat(this.b.figures().sharedErrors()).isZero();
		render(lookup, "version 1", "Cache-Control", "max-age=60");
		assertThat(body(lookup(this.b, "/page/9"))).isEqualTo("version 1");
	}

	@Test
	void withRedisStoppedBothInstancesAnswerFromMemoryAndCountTheErrorsWithinTheTimeout() {
		RedisServer own = RedisServer.start();
		SharedTierConfig config = this.shared.withTimeout(Duration.ofMillis(300));
		DefaultPageCache first = instance(own, config);
		DefaultPageCache second = instance(own, config);
		try {
			render(lookup(first, "/page/1"), "one", "Cache-Control", "max-age=60");
			await().atMost(Duration.ofSeconds(30)).until(() -> first.figures().stores() == 1
					&& body(lookup(second, "/page/1")).equals("one"));
			own.stop();
			assertThat(body(lookup(first, "/page/1"))).isEqualTo("one");
			assertThat(body(lookup(second, "/page/1"))).isEqualTo("one");
			for (DefaultPageCache instance : new DefaultPageCache[] { first, second }) {
				long start = System.nanoTime();
				Lookup miss = lookup(instance, "/page/2");
				Duration took = Duration.ofNanos(System.nanoTime() - start);
				assertThat(miss).isInstanceOf(Lookup.Miss.class);
				assertThat(took).as("a miss waits for Redis no longer than the timeout")
					.isLessThan(config.timeout().plusSeconds(2));
				render(miss, "two", "Cache-Control", "max-age=60");
				assertThat(body(lookup(instance, "/page/2"))).isEqualTo("two");
				Lookup another = lookup(instance, "/page/3");
				assertThat(another).isInstanceOf(Lookup.Miss.class);
				abandon(another);
				assertThat(instance.purgeKey("https://shop.example/page/2")).isEqualTo(1);
				await().atMost(Duration.ofSeconds(30)).until(() -> instance.figures().sharedErrors() >= 2);
			}
		}
		finally {
			first.close();
			second.close();
			own.close();
		}
	}

}
