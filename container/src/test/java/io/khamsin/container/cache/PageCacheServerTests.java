package io.khamsin.container.cache;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.metrics.LatencyKey;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.RequestPath;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The page cache wired into a running server, as clients see it over real sockets: curl, the JDK's client and
 * hand-written HTTP/1.1. The application counts its renders, so every test can tell a hit from a render; the
 * cache's clock is the test's, so that lifetimes pass without waiting.
 */
@Timeout(120)
class PageCacheServerTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final CachedPages pages = new CachedPages();

	private final AtomicLong now = new AtomicLong(System.currentTimeMillis());

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@TempDir
	Path dir;

	private DefaultPageCache cache;

	private KhamsinServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
		if (this.cache != null) {
			this.cache.close();
		}
	}

	private void start(UnaryOperator<PageCacheConfig.Builder> settings) {
		start(settings, List.of(new GzipVariantEncoder()));
	}

	private void start(UnaryOperator<PageCacheConfig.Builder> settings, List<VariantEncoder> encoders) {
		PageCacheConfig config = settings.apply(PageCacheConfig.builder().enabled(true)).build();
		this.cache = DefaultPageCache.builder(config).clock(this.now::get).encoders(encoders).build();
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(2)
			.serverHeader("khamsin-test")
			.pageCache(this.cache)
			.build(), this.pages.handler());
		this.server.start();
	}

	private void start() {
		start(UnaryOperator.identity());
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.server.port() + path;
	}

	private HttpResponse<String> get(String path, String... headers) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(path)));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private CommandLine.Result curl(String... args) {
		CommandLine.assumeInstalled("curl", "curl");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http1.1", "-D", "-"));
		command.addAll(List.of(args));
		CommandLine.Result result = CommandLine.run(null, WAIT, command);
		assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
		return result;
	}

	private void advanceSeconds(long seconds) {
		this.now.addAndGet(seconds * 1000);
	}

	@Test
	void aPageRenderedOnceIsThenAnsweredFromTheCacheWithItsAge() throws Exception {
		start();
		Path first = this.dir.resolve("first.html");
		Path second = this.dir.resolve("second.html");
		CommandLine.Result miss = curl("-o", first.toString(), url("/page/1"));
		advanceSeconds(3);
		CommandLine.Result hit = curl("-o", second.toString(), url("/page/1"));
		assertThat(this.pages.renders("/page/1")).isEqualTo(1);
		assertThat(miss.output()).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("\nAge:");
		assertThat(hit.output()).startsWith("HTTP/1.1 200")
			.containsIgnoringCase("Age: 3\r\n")
			.containsIgnoringCase("Content-Type: text/html")
			.containsIgnoringCase("Server: khamsin-test")
			.containsPattern("(?i)date: \\w{3}, \\d{2} \\w{3} \\d{4} ");
		assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first)).hasSize(CachedPages.PAGE_SIZE);
		assertThat(this.cache.figures().requests(CacheResult.HIT, CacheTier.LOCAL)).isEqualTo(1);
		assertThat(this.cache.figures().requests(CacheResult.MISS, CacheTier.LOCAL)).isEqualTo(1);
	}

	@Test
	void hitsAreTimedAsCacheHitsAndNeverReachTheApplication() throws Exception {
		start();
		for (int i = 0; i < 5; i++) {
			assertThat(get("/page/timed").statusCode()).isEqualTo(200);
		}
		assertThat(this.pages.renders("/page/timed")).isEqualTo(1);
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			Histogram hits = latencies.get(new LatencyKey(Protocol.H1, "2xx", "cache", RequestPath.CACHE_HIT));
			assertThat(hits).as("latencies: %s", latencies.keySet()).isNotNull();
			assertThat(hits.getTotalCount()).isEqualTo(4);
		});
	}

	@Test
	void anEntryExpiresAfterItsLifetime() throws Exception {
		start();
		get("/page/ttl");
		advanceSeconds(59);
		get("/page/ttl");
		assertThat(this.pages.renders("/page/ttl")).isEqualTo(1);
		advanceSeconds(2);
		HttpResponse<String> after = get("/page/ttl");
		assertThat(after.headers().firstValue("age")).isEmpty();
		assertThat(this.pages.renders("/page/ttl")).isEqualTo(2);
	}

	@Test
	void varyKeepsTheVariantsOfAPageApart() throws Exception {
		start();
		assertThat(get("/lang", "Accept-Language", "fr").body()).isEqualTo("bonjour");
		assertThat(get("/lang", "Accept-Language", "en").body()).isEqualTo("hello");
		assertThat(get("/lang", "Accept-Language", "fr").body()).isEqualTo("bonjour");
		HttpResponse<String> english = get("/lang", "Accept-Language", "en");
		assertThat(english.body()).isEqualTo("hello");
		assertThat(english.headers().firstValue("age")).isPresent();
		assertThat(english.headers().firstValue("vary")).hasValueSatisfying((vary) -> assertThat(vary)
			.containsIgnoringCase("Accept-Language"));
		assertThat(this.pages.renders("/lang")).isEqualTo(2);
	}

	@Test
	void privateResponsesAndResponsesThatSetACookieAreNeverStored() throws Exception {
		start();
		for (int i = 0; i < 3; i++) {
			assertThat(get("/private").headers().firstValue("age")).isEmpty();
			HttpResponse<String> cookie = get("/cookie");
			assertThat(cookie.headers().firstValue("set-cookie")).hasValue("session=s3cr3t; Path=/");
			assertThat(cookie.headers().firstValue("age")).isEmpty();
		}
		assertThat(this.pages.renders("/private")).isEqualTo(3);
		assertThat(this.pages.renders("/cookie")).isEqualTo(3);
		assertThat(this.cache.figures().entries()).isZero();
		assertThat(this.cache.figures().requests(CacheResult.HIT)).isZero();
	}

	@Test
	void curlsConditionalRequestsAreAnswered304FromTheCache() throws Exception {
		start();
		CommandLine.Result first = curl("-o", "/dev/null", url("/page/7"));
		String etag = first.find("(?i)etag: (\"[^\"]+\")").replaceAll("(?i)etag: ", "");
		Path dates = this.dir.resolve("page7.html");
		Files.writeString(dates, "");
		Files.setLastModifiedTime(dates, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
		CommandLine.Result byEtag = curl("-H", "If-None-Match: " + etag, url("/page/7"));
		CommandLine.Result byDate = curl("-z", dates.toString(), url("/page/7"));
		assertThat(byEtag.output()).startsWith("HTTP/1.1 304").containsIgnoringCase("etag: " + etag)
			.doesNotContainIgnoringCase("content-length");
		assertThat(byDate.output()).startsWith("HTTP/1.1 304");
		CommandLine.Result changed = curl("-o", "/dev/null", "-H", "If-None-Match: \"other\"", url("/page/7"));
		assertThat(changed.output()).startsWith("HTTP/1.1 200");
		assertThat(this.pages.renders("/page/7")).isEqualTo(1);
		assertThat(this.cache.figures().notModified()).isEqualTo(2);
	}

	@Test
	void purgesByKeyPrefixTagAndAllDropWhatTheyName() throws Exception {
		start();
		for (String page : List.of("/page/1", "/page/2", "/page/3", "/other/4")) {
			get(page);
		}
		assertThat(this.cache.purgeKey("/page/1")).isEqualTo(1);
		get("/page/1");
		assertThat(this.pages.renders("/page/1")).isEqualTo(2);
		assertThat(this.cache.purgeTag("product-2")).isEqualTo(1);
		get("/page/2");
		get("/page/3");
		assertThat(this.pages.renders("/page/2")).isEqualTo(2);
		assertThat(this.pages.renders("/page/3")).isEqualTo(1);
		assertThat(this.cache.purgePrefix("/page/")).isEqualTo(3);
		get("/page/3");
		get("/other/4");
		assertThat(this.pages.renders("/page/3")).isEqualTo(2);
		assertThat(this.pages.renders("/other/4")).isEqualTo(1);
		assertThat(this.cache.purgeAll()).isEqualTo(2);
		get("/other/4");
		assertThat(this.pages.renders("/other/4")).isEqualTo(2);
	}

	@Test
	void aHundredConcurrentMissesOfOneKeyCauseOneRender() throws Exception {
		start();
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			responses.add(this.client.sendAsync(HttpRequest.newBuilder(URI.create(url("/gated/one"))).build(),
					HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(WAIT).until(() -> this.pages.renders("/gated/one") == 1
				&& this.cache.figures().singleFlightWaits() == 99);
		this.pages.gate.complete(null);
		for (CompletableFuture<HttpResponse<String>> response : responses) {
			assertThat(response.get().statusCode()).isEqualTo(200);
			assertThat(response.get().body()).isEqualTo("gated /gated/one");
		}
		assertThat(this.pages.renders("/gated/one")).isEqualTo(1);
		PageCacheFigures figures = this.cache.figures();
		assertThat(figures.requests(CacheResult.MISS)).isEqualTo(1);
		assertThat(figures.requests(CacheResult.HIT)).isEqualTo(99);
	}

	@Test
	void aRequestWaitingForAnotherRenderHoldsThePipelinedRequestsBehindIt() throws Exception {
		start();
		CompletableFuture<HttpResponse<String>> leader = this.client.sendAsync(
				HttpRequest.newBuilder(URI.create(url("/gated/piped"))).build(), HttpResponse.BodyHandlers.ofString());
		await().atMost(WAIT).until(() -> this.pages.renders("/gated/piped") == 1);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			// The same Host as the JDK's client sends: the host is part of the page's key.
			String host = "Host: 127.0.0.1:" + this.server.port() + "\r\n\r\n";
			connection.send("GET /gated/piped HTTP/1.1\r\n" + host + "GET /page/after HTTP/1.1\r\n" + host);
			await().atMost(WAIT).until(() -> this.cache.figures().singleFlightWaits() == 1);
			assertThat(this.pages.renders("/page/after")).as("held behind the waiting request").isZero();
			this.pages.gate.complete(null);
			RawHttpConnection.Response waited = connection.read();
			RawHttpConnection.Response after = connection.read();
			assertThat(waited.bodyText()).isEqualTo("gated /gated/piped");
			assertThat(waited.header("age")).isNotNull();
			assertThat(after.bodyText()).contains("Product after");
		}
		assertThat(leader.get().statusCode()).isEqualTo(200);
		assertThat(this.pages.renders("/gated/piped")).isEqualTo(1);
	}

	@Test
	void aClientThatLeavesWhileWaitingLetsTheRenderGoOn() throws Exception {
		start();
		CompletableFuture<HttpResponse<String>> leader = this.client.sendAsync(
				HttpRequest.newBuilder(URI.create(url("/gated/left"))).build(), HttpResponse.BodyHandlers.ofString());
		await().atMost(WAIT).until(() -> this.pages.renders("/gated/left") == 1);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /gated/left HTTP/1.1\r\nHost: 127.0.0.1:" + this.server.port() + "\r\n\r\n");
			await().atMost(WAIT).until(() -> this.cache.figures().singleFlightWaits() == 1);
		}
		await().atMost(WAIT).until(() -> this.server.connections().open() == 1);
		this.pages.gate.complete(null);
		assertThat(leader.get().body()).isEqualTo("gated /gated/left");
		assertThat(get("/gated/left").headers().firstValue("age")).isPresent();
		assertThat(this.pages.renders("/gated/left")).isEqualTo(1);
	}

	@Test
	void aPageIsStoredOnlyOnceItMissedAsOftenAsTheAdmissionThresholdSays() throws Exception {
		start((config) -> config.admissionThreshold(3));
		for (int i = 0; i < 5; i++) {
			get("/page/popular");
		}
		assertThat(this.pages.renders("/page/popular")).isEqualTo(3);
		PageCacheFigures figures = this.cache.figures();
		assertThat(figures.admissionRejections()).isEqualTo(2);
		assertThat(figures.requests(CacheResult.HIT)).isEqualTo(2);
	}

	@Test
	void curlDecodesTheCompressedVariantToTheIdentityBody() throws Exception {
		start();
		Path identity = this.dir.resolve("identity.html");
		Path decoded = this.dir.resolve("decoded.html");
		curl("-o", identity.toString(), url("/page/zipped"));
		// A large body's variant is made off the event loop: the first clients that accept gzip get the identity.
		CommandLine.Result compressed = await().atMost(WAIT).until(
				() -> curl("--compressed", "-o", decoded.toString(), url("/page/zipped")),
				(result) -> result.output().toLowerCase().contains("content-encoding: gzip"));
		assertThat(compressed.output()).containsIgnoringCase("vary: accept-encoding");
		int length = Integer.parseInt(compressed.find("(?i)content-length: (\\d+)").replaceAll("\\D", ""));
		assertThat(length).isLessThan(CachedPages.PAGE_SIZE / 2);
		assertThat(Files.readAllBytes(decoded)).isEqualTo(Files.readAllBytes(identity));
		assertThat(this.pages.renders("/page/zipped")).isEqualTo(1);
	}

	@Test
	void curlDecodesTheBrotliAndZstandardVariantsToTheIdentityBody() throws Exception {
		start(UnaryOperator.identity(), CompressedVariantEncoder.available());
		Path identity = this.dir.resolve("identity.html");
		curl("-o", identity.toString(), url("/page/coded"));
		for (String coding : List.of("br", "zstd")) {
			Assumptions.assumeTrue(CompressedVariantEncoder.available().stream()
				.anyMatch((encoder) -> encoder.coding().token().equals(coding)), coding + " does not load here");
			Path decoded = this.dir.resolve("decoded." + coding);
			CommandLine.Result compressed = await().atMost(WAIT).until(
					() -> curl("--compressed", "-H", "Accept-Encoding: " + coding, "-o", decoded.toString(),
							url("/page/coded")),
					(result) -> result.output().toLowerCase().contains("content-encoding: " + coding));
			assertThat(compressed.output()).containsIgnoringCase("age: ");
			assertThat(Files.readAllBytes(decoded)).as(coding).isEqualTo(Files.readAllBytes(identity));
		}
		assertThat(this.pages.renders("/page/coded")).isEqualTo(1);
		assertThat(this.cache.figures().variants()).isEqualTo(2);
	}

	@Test
	void aHeadRequestIsAnsweredFromTheGetsEntryWithoutABody() throws Exception {
		start();
		get("/page/head");
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("HEAD /page/head HTTP/1.1\r\nHost: 127.0.0.1:" + this.server.port() + "\r\n\r\n"
					+ "GET /page/head HTTP/1.1\r\nHost: 127.0.0.1:" + this.server.port() + "\r\nConnection: close\r\n\r\n");
			RawHttpConnection.Response head = connection.read(true);
			RawHttpConnection.Response get = connection.read();
			assertThat(head.header("content-length")).isEqualTo(Integer.toString(CachedPages.PAGE_SIZE));
			assertThat(head.header("age")).isNotNull();
			assertThat(get.body()).hasSize(CachedPages.PAGE_SIZE);
			assertThat(get.header("connection")).isEqualTo("close");
			assertThat(connection.isClosedByServer()).isTrue();
		}
		assertThat(this.pages.renders("/page/head")).isEqualTo(1);
	}

	@Test
	void aStalePageIsServedWhileOneBackgroundRenderRefreshesIt() throws Exception {
		start((config) -> config.staleWhileRevalidate(Duration.ofMinutes(5)));
		assertThat(get("/news").body()).isEqualTo("news 1");
		advanceSeconds(90);
		HttpResponse<String> stale = get("/news");
		assertThat(stale.body()).isEqualTo("news 1");
		assertThat(stale.headers().firstValue("age")).hasValue("90");
		await().atMost(WAIT).until(() -> this.pages.renders("/news") == 2 && this.cache.figures().stores() == 2);
		HttpResponse<String> fresh = get("/news");
		assertThat(fresh.body()).isEqualTo("news 2");
		assertThat(this.pages.renders("/news")).isEqualTo(2);
		assertThat(this.cache.figures().requests(CacheResult.STALE)).isEqualTo(1);
	}

	@Test
	void aFloodOfKeysStaysWithinTheBytesTheCacheMayHold() throws Exception {
		long limit = 1024 * 1024;
		start((config) -> config.maxSize(limit).maxObjectSize(256 * 1024));
		for (int i = 0; i < 200; i++) {
			assertThat(get("/page/flood-" + i).statusCode()).isEqualTo(200);
		}
		PageCacheFigures figures = this.cache.figures();
		assertThat(figures.bytes()).isLessThanOrEqualTo(limit);
		assertThat(figures.stores()).isEqualTo(200);
		assertThat(figures.evictions()).isGreaterThan(150);
		assertThat(figures.entries()).isLessThan(limit / CachedPages.PAGE_SIZE + 1);
	}

	@Test
	void requestsOutsideTheCachesPathsAreNotLookedUp() throws Exception {
		start((config) -> config.paths(List.of("/page/**")));
		for (int i = 0; i < 2; i++) {
			get("/other/1");
			get("/page/1");
		}
		assertThat(this.pages.renders("/other/1")).isEqualTo(2);
		assertThat(this.pages.renders("/page/1")).isEqualTo(1);
		PageCacheFigures figures = this.cache.figures();
		assertThat(figures.requests(CacheResult.MISS) + figures.requests(CacheResult.HIT)
				+ figures.requests(CacheResult.BYPASS) + figures.requests(CacheResult.UNCACHEABLE))
			.as("only /page/1 was looked up")
			.isEqualTo(2);
	}

	@Test
	void aServerWithoutAnEnabledPageCacheRendersEveryRequest() throws Exception {
		this.cache = DefaultPageCache.builder(PageCacheConfig.defaults()).build();
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).pageCache(this.cache).build(),
				this.pages.handler());
		this.server.start();
		get("/page/off");
		get("/page/off");
		assertThat(this.pages.renders("/page/off")).isEqualTo(2);
		assertThat(this.cache.figures().requests(CacheResult.BYPASS)).as("not even looked up").isZero();
	}

}
