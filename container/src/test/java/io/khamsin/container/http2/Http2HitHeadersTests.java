package io.khamsin.container.http2;

import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.cache.CacheFixture;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;

import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

/** Page-cache answers as HTTP/2 header blocks. */
class Http2HitHeadersTests {

	private final CacheFixture fixture = new CacheFixture();

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	private void cacheWith(String path, String body) {
		this.cache = this.fixture.cacheWithPage(path, body);
	}

	@Test
	void anHttp2HitHasItsHeadersPrebuiltWithDateAndAgeAdded() {
		cacheWith("/p", "hello");
		Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache, get("/p"));
		Http2Headers headers = Http2HitHeaders.of(hit);
		assertThat(headers.status().toString()).isEqualTo("200");
		assertThat(headers.get("content-length").toString()).isEqualTo("5");
		assertThat(headers.get("etag").toString()).isEqualTo("\"v1\"");
		assertThat(headers.contains("date")).isTrue();
		assertThat(headers.get("age").toString()).isEqualTo("0");
		assertThat(headers.contains("connection")).as("no connection-specific header in HTTP/2").isFalse();
		assertThat(hit.representation().head().encoded(Http2HitHeaders.HEADERS).contains("date")).as("the cached block is left alone").isFalse();
		hit.release();
	}

}
