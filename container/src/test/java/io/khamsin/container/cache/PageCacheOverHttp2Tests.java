package io.khamsin.container.cache;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.metrics.LatencyKey;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.RequestPath;
import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The page cache answers HTTP/2 streams as it answers HTTP/1.1 requests: one render, then hits with their age in a
 * {@code HEADERS} frame and the stored body in {@code DATA} frames, {@code 304} from the cache, {@code HEAD} without
 * a body, and many concurrent streams of one page served by one render. The clients are curl and h2load on h2c.
 */
@Timeout(120)
class PageCacheOverHttp2Tests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final CachedPages pages = new CachedPages();

	private final AtomicLong now = new AtomicLong(System.currentTimeMillis());

	@TempDir
	Path dir;

	private DefaultPageCache cache;

	private KhamsinServer server;

	@BeforeEach
	void start() {
		this.cache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).build())
			.clock(this.now::get)
			.encoders(List.of(new GzipVariantEncoder()))
			.build();
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.serverHeader("khamsin-test")
			.http2(Http2Config.builder().enabled(true).build())
			.pageCache(this.cache)
			.build(), this.pages.handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
		this.cache.close();
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.server.port() + path;
	}

	private CommandLine.Result curl(String... args) {
		CommandLine.assumeInstalled("curl", "curl");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http2-prior-knowledge", "-D", "-"));
		command.addAll(List.of(args));
		CommandLine.Result result = CommandLine.run(null, WAIT, command);
		assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
		return result;
	}

	@Test
	void aPageRenderedOnceIsThenAnsweredFromTheCacheOverHttp2() throws Exception {
		Path first = this.dir.resolve("first.html");
		Path second = this.dir.resolve("second.html");
		CommandLine.Result miss = curl("-o", first.toString(), url("/page/1"));
		this.now.addAndGet(4000);
		CommandLine.Result hit = curl("-o", second.toString(), url("/page/1"));
		assertThat(this.pages.renders("/page/1")).isEqualTo(1);
		assertThat(miss.output()).startsWith("HTTP/2 200").doesNotContainIgnoringCase("\nage:");
		assertThat(hit.output()).startsWith("HTTP/2 200")
			.containsIgnoringCase("age: 4\r\n")
			.containsIgnoringCase("content-type: text/html")
			.containsIgnoringCase("server: khamsin-test")
			.containsPattern("(?i)date: \\w{3}, \\d{2} \\w{3} \\d{4} ");
		assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first)).hasSize(CachedPages.PAGE_SIZE);
		assertThat(this.cache.figures().requests(CacheResult.HIT, CacheTier.LOCAL)).isEqualTo(1);
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			Histogram hits = latencies.get(new LatencyKey(Protocol.H2, "2xx", "cache", RequestPath.CACHE_HIT));
			assertThat(hits).as("latencies: %s", latencies.keySet()).isNotNull();
			assertThat(hits.getTotalCount()).isEqualTo(1);
		});
	}

	@Test
	void conditionalAndHeadRequestsAreAnsweredFromTheCacheOverHttp2() {
		CommandLine.Result first = curl("-o", "/dev/null", url("/page/7"));
		String etag = first.find("(?i)etag: (\"[^\"]+\")").replaceAll("(?i)etag: ", "");
		CommandLine.Result notModified = curl("-H", "If-None-Match: " + etag, url("/page/7"));
		assertThat(notModified.output()).startsWith("HTTP/2 304").containsIgnoringCase("etag: " + etag);
		CommandLine.Result head = curl("-I", url("/page/7"));
		assertThat(head.output()).startsWith("HTTP/2 200")
			.containsIgnoringCase("content-length: " + CachedPages.PAGE_SIZE)
			.containsIgnoringCase("age: ");
		assertThat(this.pages.renders("/page/7")).isEqualTo(1);
		assertThat(this.cache.figures().notModified()).isEqualTo(1);
	}

	@Test
	void curlDecodesTheGzipVariantOverHttp2ToTheIdentityBody() throws Exception {
		Path identity = this.dir.resolve("identity.html");
		Path decoded = this.dir.resolve("decoded.html");
		curl("-o", identity.toString(), url("/page/3"));
		curl("-o", "/dev/null", "--compressed", url("/page/3"));
		// A page this large is compressed off the event loop, and the client that asked for it is not kept waiting.
		await().atMost(WAIT).until(() -> this.cache.figures().variants() == 1);
		CommandLine.Result gzip = curl("-o", decoded.toString(), "--compressed", url("/page/3"));
		assertThat(gzip.output()).containsIgnoringCase("content-encoding: gzip");
		assertThat(Files.readAllBytes(decoded)).isEqualTo(Files.readAllBytes(identity));
		assertThat(this.pages.renders("/page/3")).isEqualTo(1);
	}

	@Test
	void manyConcurrentStreamsOfOnePageCauseOneRender() {
		CommandLine.assumeInstalled("h2load", "nghttp2-client");
		// 200 streams at once (4 connections of 50), four times over. More would only add hits: 4,000 took 10 s in CI,
		// with the leak detector at paranoid.
		CommandLine.Result result = CommandLine.run(null, Duration.ofSeconds(60), "h2load", "-c", "4", "-m", "50",
				"-n", "800", url("/page/9"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.find("status codes: (\\d+) 2xx")).as(result.toString()).isEqualTo("800");
		assertThat(this.pages.renders("/page/9")).isEqualTo(1);
		assertThat(this.cache.figures().requests(CacheResult.HIT, CacheTier.LOCAL)
				+ this.cache.figures().requests(CacheResult.MISS, CacheTier.LOCAL))
			.isEqualTo(800);
	}

}
