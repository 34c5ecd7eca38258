package io.khamsin.actuate.cache;

import java.nio.charset.StandardCharsets;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.khamsin.container.cache.CacheRequest;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.Ticket;

import static org.assertj.core.api.Assertions.assertThat;

class PageCacheActuatorTests {

	private final DefaultPageCache cache = DefaultPageCache
		.builder(PageCacheConfig.builder().enabled(true).build())
		.build();

	private long hits;

	private long misses;

	@AfterEach
	void close() {
		this.cache.close();
	}

	private void request(String path) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders().set("Host", "shop.example");
		CacheRequest request = CacheRequest
			.of(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, headers), "https");
		Lookup lookup = this.cache.lookup(request, ImmediateEventExecutor.INSTANCE);
		if (lookup instanceof Lookup.Hit hit) {
			this.hits++;
			hit.release();
			return;
		}
		this.misses++;
		Ticket ticket = ((Lookup.Miss) lookup).ticket();
		HttpHeaders response = DefaultHttpHeadersFactory.headersFactory().newHeaders()
			.set("Cache-Control", "max-age=60")
			.set("Cache-Tag", path.startsWith("/news") ? "news" : "page")
			.set("Content-Length", 4);
		ticket.onHead(200, response);
		ByteBuf body = Unpooled.copiedBuffer("page", StandardCharsets.US_ASCII);
		ticket.onBody(body);
		body.release();
		ticket.complete();
	}

	private void traffic() {
		for (int i = 0; i < 30; i++) {
			request((i % 3 == 0) ? "/news/" + (i % 4) : "/page/" + (i % 5));
		}
	}

	@Test
	void theEndpointShowsTheFiguresAndTheTopKeys() {
		traffic();
		PageCacheEndpoint.PageCacheDescriptor descriptor = new PageCacheEndpoint(this.cache).pageCache();
		assertThat(descriptor.requests().get("hit").get("local")).isEqualTo(this.hits);
		assertThat(descriptor.requests().get("miss").get("local")).isEqualTo(this.misses);
		assertThat(descriptor.hitRatio()).isEqualTo((double) this.hits / (this.hits + this.misses));
		assertThat(descriptor.entries()).isEqualTo(9);
		assertThat(descriptor.topKeys()).isNotEmpty();
		assertThat(descriptor.topKeys().get(0).hits()).isGreaterThanOrEqualTo(descriptor.topKeys().get(1).hits());
	}

	@Test
	void deletePurgesByExactlyOneParameter() {
		traffic();
		PageCacheEndpoint endpoint = new PageCacheEndpoint(this.cache);
		assertThat(endpoint.purge(null, null, null, null).getStatus()).isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
		assertThat(endpoint.purge("/page/1", "/page/", null, null).getStatus())
			.isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
		assertThat(endpoint.purge("https://shop.example/page/1", null, null, null).getBody())
			.isEqualTo(new PageCacheEndpoint.PurgeDescriptor("key", "https://shop.example/page/1", 1));
		assertThat(endpoint.purge(null, "/page/", null, null).getBody())
			.isEqualTo(new PageCacheEndpoint.PurgeDescriptor("prefix", "/page/", 4));
		assertThat(endpoint.purge(null, null, "news", null).getBody())
			.isEqualTo(new PageCacheEndpoint.PurgeDescriptor("tag", "news", 4));
		traffic();
		assertThat(endpoint.purge(null, null, null, true).getBody())
			.isEqualTo(new PageCacheEndpoint.PurgeDescriptor("all", "", 9));
	}

	@Test
	void theMetersReadTheEnginesCountsAndTheHitRatio() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new PageCacheMeterBinder(this.cache).bindTo(registry);
		traffic();
		assertThat(registry.get("khamsin.pagecache.requests").tag("result", "hit").tag("tier", "local")
			.functionCounter().count()).isEqualTo(this.hits);
		assertThat(registry.get("khamsin.pagecache.requests").tag("result", "miss").tag("tier", "local")
			.functionCounter().count()).isEqualTo(this.misses);
		assertThat(registry.get("khamsin.pagecache.hit.ratio").gauge().value())
			.isEqualTo((double) this.hits / (this.hits + this.misses));
		assertThat(registry.get("khamsin.pagecache.entries").gauge().value()).isEqualTo(9);
		assertThat(registry.get("khamsin.pagecache.bytes").gauge().value()).isPositive();
		for (String name : new String[] { "khamsin.pagecache.evictions", "khamsin.pagecache.admission.rejections",
				"khamsin.pagecache.singleflight.waits", "khamsin.pagecache.shared.errors" }) {
			assertThat(registry.get(name).functionCounter().count()).as(name).isZero();
		}
	}

}
