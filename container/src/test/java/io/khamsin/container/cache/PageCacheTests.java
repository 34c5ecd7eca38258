package io.khamsin.container.cache;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.khamsin.container.cache.CacheFixture.body;
import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

class PageCacheTests {

	private final CacheFixture fixture = new CacheFixture();

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	private DefaultPageCache cache(PageCacheConfig.Builder config) {
		this.cache = this.fixture.builder(config.build()).build();
		return this.cache;
	}

	@Test
	void aSecondRequestIsAHitAfterTheFirstMissStoredItsResponse() {
		DefaultPageCache cache = cache(config());
		Lookup first = this.fixture.lookup(cache, get("/page/1?lang=en"));
		this.fixture.render(first, 200, "<h1>one</h1>", "Cache-Control", "max-age=60", "Content-Type", "text/html");
		Lookup second = this.fixture.lookup(cache, get("/page/1?lang=en"));
		assertThat(second).isInstanceOf(Lookup.Hit.class);
		Lookup.Hit hit = (Lookup.Hit) second;
		assertThat(hit.entry().key()).isEqualTo("https://shop.example/page/1?lang=en");
		assertThat(hit.tier()).isEqualTo(CacheTier.LOCAL);
		assertThat(hit.stale()).isFalse();
		assertThat(body(second)).isEqualTo("<h1>one</h1>");
		assertThat(this.fixture.lookup(cache, get("/page/1?lang=fr"))).isInstanceOf(Lookup.Miss.class);
		PageCacheFigures figures = cache.figures();
		assertThat(figures.requests(CacheResult.HIT, CacheTier.LOCAL)).isEqualTo(1);
		assertThat(figures.entries()).isEqualTo(1);
		assertThat(figures.bytes()).isPositive();
	}

	@Test
	void aHeadIsAnsweredFromTheGetsEntryWithoutABody() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1")), 200, "twelve bytes", "Cache-Control", "max-age=60");
		Lookup head = this.fixture.lookup(cache, CacheFixture.request(HttpMethod.HEAD, "/page/1"));
		assertThat(head).isInstanceOf(Lookup.Hit.class);
		assertThat(((Lookup.Hit) head).body()).isNull();
		assertThat(((Lookup.Hit) head).representation().length()).isEqualTo(12);
	}

	@Test
	void anEntryIsAMissOnceItsLifetimeIsOver() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1")), 200, "one", "Cache-Control", "max-age=10");
		this.fixture.advanceSeconds(9);
		Lookup fresh = this.fixture.lookup(cache, get("/page/1"));
		assertThat(((Lookup.Hit) fresh).ageSeconds()).isEqualTo(9);
		CacheFixture.release(fresh);
		this.fixture.advanceSeconds(2);
		Lookup expired = this.fixture.lookup(cache, get("/page/1"));
		assertThat(expired).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(expired);
	}

	@Test
	void sMaxAgeWinsOverMaxAgeAndAnAgeFromUpstreamCounts() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1")), 200, "one", "Cache-Control",
				"max-age=5, s-maxage=100", "Age", "30");
		this.fixture.advanceSeconds(60);
		Lookup hit = this.fixture.lookup(cache, get("/page/1"));
		assertThat(((Lookup.Hit) hit).ageSeconds()).isEqualTo(90);
		CacheFixture.release(hit);
		this.fixture.advanceSeconds(11);
		Lookup expired = this.fixture.lookup(cache, get("/page/1"));
		assertThat(expired).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(expired);
	}

	@Test
	void varyKeepsTheVariantsOfAPageApart() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1", "Accept-Language", "en")), 200, "hello",
				"Cache-Control", "max-age=60", "Vary", "Accept-Language");
		Lookup french = this.fixture.lookup(cache, get("/page/1", "Accept-Language", "fr"));
		assertThat(french).isInstanceOf(Lookup.Miss.class);
		this.fixture.render(french, 200, "bonjour", "Cache-Control", "max-age=60", "Vary", "Accept-Language");
		assertThat(body(this.fixture.lookup(cache, get("/page/1", "Accept-Language", "en")))).isEqualTo("hello");
		assertThat(body(this.fixture.lookup(cache, get("/page/1", "Accept-Language", "fr")))).isEqualTo("bonjour");
		Lookup german = this.fixture.lookup(cache, get("/page/1", "Accept-Language", "de"));
		assertThat(german).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(german);
	}

	@Test
	void varyStarIsNeverStored() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1")), 200, "one", "Cache-Control", "max-age=60",
				"Vary", "*");
		assertThat(this.fixture.lookup(cache, get("/page/1"))).isNotInstanceOf(Lookup.Hit.class);
		assertThat(cache.figures().entries()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "Cache-Control=private, max-age=60", "Cache-Control=no-store",
			"Cache-Control=public, no-cache", "Set-Cookie=session=1", "Cache-Control=" })
	void responsesThatMustNotBeSharedAreNeverStored(String header) {
		DefaultPageCache cache = cache(config());
		String[] nameValue = header.split("=", 2);
		Lookup miss = this.fixture.lookup(cache, get("/account"));
		this.fixture.render(miss, 200, "mine", nameValue[0], nameValue[1], "Cache-Control", "max-age=60");
		if (nameValue[0].equals("Cache-Control") && nameValue[1].isEmpty()) {
			// The control: the same response without the header is stored.
			assertThat(body(this.fixture.lookup(cache, get("/account")))).isEqualTo("mine");
			return;
		}
		Lookup next = this.fixture.lookup(cache, get("/account"));
		assertThat(next).isNotInstanceOf(Lookup.Hit.class);
		CacheFixture.release(next);
		assertThat(cache.figures().entries()).isZero();
		assertThat(cache.figures().requests(CacheResult.UNCACHEABLE)).isEqualTo(2);
	}

	@Test
	void aResponseToAnAuthorizedRequestIsStoredOnlyWhenItSaysPublic() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/a", "Authorization", "Bearer x")), 200, "secret",
				"Cache-Control", "max-age=60");
		assertThat(cache.figures().entries()).isZero();
		this.fixture.render(this.fixture.lookup(cache, get("/b", "Authorization", "Bearer x")), 200, "shared",
				"Cache-Control", "public, max-age=60");
		assertThat(body(this.fixture.lookup(cache, get("/b", "Authorization", "Bearer y")))).isEqualTo("shared");
	}

	@Test
	void onlyTheConfiguredStatusesAreStored() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/gone")), 404, "none", "Cache-Control", "max-age=60");
		this.fixture.render(this.fixture.lookup(cache, get("/moved")), 301, "", "Cache-Control", "max-age=60",
				"Location", "/new");
		this.fixture.render(this.fixture.lookup(cache, get("/created")), 201, "", "Cache-Control", "max-age=60");
		assertThat(status(this.fixture.lookup(cache, get("/gone")))).isEqualTo(404);
		assertThat(status(this.fixture.lookup(cache, get("/moved")))).isEqualTo(301);
		assertThat(this.fixture.lookup(cache, get("/created"))).isNotInstanceOf(Lookup.Hit.class);
		assertThat(cache.figures().entries()).isEqualTo(2);
	}

	private static int status(Lookup lookup) {
		assertThat(lookup).isInstanceOf(Lookup.Hit.class);
		CacheFixture.release(lookup);
		return ((Lookup.Hit) lookup).entry().status();
	}

	@Test
	void aRuleGivesALifetimeToResponsesThatSayNone() {
		DefaultPageCache cache = cache(config().rule(PageCacheRule.ttl("/page/**", Duration.ofSeconds(30)))
			.rule(PageCacheRule.respectCacheControl("/other/**")));
		this.fixture.render(this.fixture.lookup(cache, get("/page/7")), 200, "ruled");
		this.fixture.render(this.fixture.lookup(cache, get("/other/7")), 200, "not ruled");
		this.fixture.render(this.fixture.lookup(cache, get("/page/8")), 200, "private", "Cache-Control", "private");
		assertThat(body(this.fixture.lookup(cache, get("/page/7")))).isEqualTo("ruled");
		assertThat(this.fixture.lookup(cache, get("/other/7"))).isNotInstanceOf(Lookup.Hit.class);
		assertThat(this.fixture.lookup(cache, get("/page/8"))).isNotInstanceOf(Lookup.Hit.class);
		this.fixture.advanceSeconds(31);
		Lookup expired = this.fixture.lookup(cache, get("/page/7"));
		assertThat(expired).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(expired);
	}

	@Test
	void aPublicResponseWithoutALifetimeGetsTheDefaultTtl() {
		DefaultPageCache cache = cache(config().defaultTtl(Duration.ofSeconds(20)));
		this.fixture.render(this.fixture.lookup(cache, get("/p")), 200, "p", "Cache-Control", "public");
		this.fixture.advanceSeconds(19);
		assertThat(body(this.fixture.lookup(cache, get("/p")))).isEqualTo("p");
		this.fixture.advanceSeconds(2);
		Lookup expired = this.fixture.lookup(cache, get("/p"));
		assertThat(expired).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(expired);
	}

	@Test
	void conditionalRequestsAreAnswered304FromTheCache() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/page/1")), 200, "one", "Cache-Control", "max-age=60",
				"ETag", "\"v1\"", "Last-Modified", "Tue, 14 Nov 2023 12:00:00 GMT");
		assertThat(this.fixture.lookup(cache, get("/page/1", "If-None-Match", "W/\"v1\"")))
			.isInstanceOf(Lookup.NotModified.class);
		assertThat(this.fixture.lookup(cache, get("/page/1", "If-None-Match", "\"v0\", \"v1\"")))
			.isInstanceOf(Lookup.NotModified.class);
		assertThat(body(this.fixture.lookup(cache, get("/page/1", "If-None-Match", "\"v2\"")))).isEqualTo("one");
		assertThat(this.fixture.lookup(cache, get("/page/1", "If-Modified-Since", "Tue, 14 Nov 2023 12:00:00 GMT")))
			.isInstanceOf(Lookup.NotModified.class);
		assertThat(body(this.fixture.lookup(cache, get("/page/1", "If-Modified-Since", "Tue, 14 Nov 2023 11:59:59 GMT"))))
			.isEqualTo("one");
		assertThat(cache.figures().notModified()).isEqualTo(3);
		assertThat(cache.figures().requests(CacheResult.HIT)).isEqualTo(5);
	}

	@Test
	void purgesDropByKeyPrefixTagAndAll() {
		DefaultPageCache cache = cache(config());
		String[] pages = { "/page/1", "/page/2", "/news/1", "/news/2" };
		for (String page : pages) {
			this.fixture.render(this.fixture.lookup(cache, get(page)), 200, page, "Cache-Control", "max-age=60",
					"Cache-Tag", page.startsWith("/news") ? "news, front" : "pages");
		}
		assertThat(cache.purgeKey("https://shop.example/page/1")).isEqualTo(1);
		assertThat(this.fixture.lookup(cache, get("/page/1"))).isInstanceOf(Lookup.Miss.class);
		assertThat(body(this.fixture.lookup(cache, get("/page/2")))).isEqualTo("/page/2");
		assertThat(cache.purgePrefix("/page/")).isEqualTo(1);
		assertThat(cache.purgeTag("front")).isEqualTo(2);
		assertThat(cache.figures().entries()).isZero();
		this.fixture.render(this.fixture.lookup(cache, get("/page/3")), 200, "3", "Cache-Control", "max-age=60");
		this.fixture.render(this.fixture.lookup(cache, get("/page/4", "X", "1")), 200, "4", "Cache-Control",
				"max-age=60", "Vary", "X");
		assertThat(cache.purgeAll()).isEqualTo(2);
		assertThat(cache.figures().entries()).isZero();
		assertThat(cache.figures().purged()).isEqualTo(6);
	}

	@Test
	void theAdmissionThresholdStoresAKeyOnItsNthMiss() {
		DefaultPageCache cache = cache(config().admissionThreshold(3));
		for (int miss = 1; miss <= 3; miss++) {
			Lookup lookup = this.fixture.lookup(cache, get("/page/1"));
			assertThat(lookup).as("miss %d", miss).isInstanceOf(Lookup.Miss.class);
			this.fixture.render(lookup, 200, "one", "Cache-Control", "max-age=60");
		}
		assertThat(body(this.fixture.lookup(cache, get("/page/1")))).isEqualTo("one");
		assertThat(cache.figures().admissionRejections()).isEqualTo(2);
		assertThat(cache.figures().stores()).isEqualTo(1);
	}

	@Test
	void aBodyOverTheLargestObjectIsNotStored() {
		DefaultPageCache cache = cache(config().maxObjectSize(100));
		this.fixture.render(this.fixture.lookup(cache, get("/big")), 200, "x".repeat(101), "Cache-Control", "max-age=60");
		this.fixture.render(this.fixture.lookup(cache, get("/small")), 200, "x".repeat(100), "Cache-Control",
				"max-age=60");
		assertThat(cache.figures().entries()).isEqualTo(1);
	}

	@Test
	void theHitRatioIsHitsOverHitsAndMisses() {
		DefaultPageCache cache = cache(config());
		long hits = 0;
		long misses = 0;
		for (int i = 0; i < 40; i++) {
			Lookup lookup = this.fixture.lookup(cache, get("/page/" + (i % 7)));
			if (lookup instanceof Lookup.Miss) {
				misses++;
				this.fixture.render(lookup, 200, "p", "Cache-Control", "max-age=60");
			}
			else {
				hits++;
				CacheFixture.release(lookup);
			}
		}
		this.fixture.lookup(cache, CacheFixture.request(HttpMethod.POST, "/page/1"));
		assertThat(hits).isEqualTo(33);
		assertThat(cache.figures().hitRatio()).isEqualTo((double) hits / (hits + misses));
		assertThat(cache.figures().requests(CacheResult.BYPASS)).isEqualTo(1);
	}

	@Test
	void aLifetimeTooLargeForMillisecondsIsTakenAsTwoToThe31Seconds() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/forever")), 200, "kept", "Cache-Control",
				"max-age=9300000000000000");
		Lookup lookup = this.fixture.lookup(cache, get("/forever"));
		assertThat(lookup).isInstanceOf(Lookup.Hit.class);
		assertThat(body(lookup)).isEqualTo("kept");
		assertThat(CacheControl.parse(List.of("s-maxage=99999999999999999999, max-age=+5")))
			.isEqualTo(new CacheControl(false, false, false, false, false, 0, 1L << 31, -1, -1));
	}

	@ParameterizedTest
	@ValueSource(strings = { "shop.example/evil", "shop.example?x=1", "shop.example#x", "user@shop.example",
			"shop example" })
	void aHostThatIsNotAnAuthorityIsNotLookedUpSoItsKeyCannotSpellAnotherPage(String host) {
		DefaultPageCache cache = cache(config());
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders();
		headers.set("Host", host);
		CacheRequest request = CacheRequest.of(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/page",
				headers), "https");
		assertThat(this.fixture.lookup(cache, request)).isEqualTo(new Lookup.Bypass(BypassReason.TARGET));
	}

	@Test
	void requestsTheCacheCannotAnswerBypassIt() {
		DefaultPageCache cache = cache(config());
		assertThat(this.fixture.lookup(cache, CacheFixture.request(HttpMethod.POST, "/p")))
			.isEqualTo(new Lookup.Bypass(BypassReason.METHOD));
		assertThat(this.fixture.lookup(cache, get("/p", "Content-Length", "3")))
			.isEqualTo(new Lookup.Bypass(BypassReason.BODY));
		assertThat(this.fixture.lookup(cache, get("/p", "Upgrade", "websocket")))
			.isEqualTo(new Lookup.Bypass(BypassReason.UPGRADE));
		assertThat(this.fixture.lookup(cache, get("/p", "Cache-Control", "no-store")))
			.isEqualTo(new Lookup.Bypass(BypassReason.NO_STORE));
		DefaultPageCache off = this.fixture.builder(PageCacheConfig.defaults()).build();
		assertThat(this.fixture.lookup(off, get("/p"))).isEqualTo(new Lookup.Bypass(BypassReason.DISABLED));
		off.close();
	}

	@Test
	void aRequestWithNoCacheRendersAgainAndRefreshesTheEntry() {
		DefaultPageCache cache = cache(config());
		this.fixture.render(this.fixture.lookup(cache, get("/p")), 200, "old", "Cache-Control", "max-age=60");
		Lookup reload = this.fixture.lookup(cache, get("/p", "Cache-Control", "no-cache"));
		this.fixture.render(reload, 200, "new", "Cache-Control", "max-age=60");
		assertThat(body(this.fixture.lookup(cache, get("/p")))).isEqualTo("new");
	}

	@Test
	void theTopKeysAreThoseWithTheMostHits() {
		DefaultPageCache cache = cache(config());
		for (int page = 1; page <= 3; page++) {
			this.fixture.render(this.fixture.lookup(cache, get("/page/" + page)), 200, "p", "Cache-Control", "max-age=60");
			for (int hit = 0; hit < page * 2; hit++) {
				CacheFixture.release(this.fixture.lookup(cache, get("/page/" + page)));
			}
		}
		assertThat(cache.topKeys(2)).extracting(TopKey::key, TopKey::hits)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("https://shop.example/page/3", 6L),
					org.assertj.core.groups.Tuple.tuple("https://shop.example/page/2", 4L));
	}

	@Test
	void theConfigurationRefusesWhatCannotWork() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> config().maxSize(1000).maxObjectSize(2000).build())
			.withMessageContaining("maxObjectSize");
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> config().statuses(Set.of(100)).build())
			.withMessageContaining("statuses");
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> PageCacheRule.ttl("/page/{", Duration.ofSeconds(1)))
			.withMessageContaining("/page/{");
	}

}
