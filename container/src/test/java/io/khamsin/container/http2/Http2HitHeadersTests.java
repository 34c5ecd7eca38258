package io.khamsin.container.http2;

import java.util.Date;
import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.DateFormatter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.cache.CacheFixture;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;

import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

/** Page-cache answers as HTTP/2 header blocks. */
class Http2HitHeadersTests {

	private final CacheFixture fixture = new CacheFixture();

	private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		this.channel.finishAndReleaseAll();
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	private ChannelHandlerContext ctx() {
		return this.channel.pipeline().firstContext();
	}

	private String written() {
		StringBuilder bytes = new StringBuilder();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			bytes.append(((ByteBuf) message).toString(StandardCharsets.ISO_8859_1));
			ReferenceCountUtil.release(message);
		}
		return bytes.toString();
	}

	private DefaultPageCache cacheWith(String path, String body) {
		this.cache = this.fixture.builder(config().build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get(path)), 200, body, "Cache-Control", "max-age=60",
				"Content-Type", "text/plain", "ETag", "\"v1\"", "Connection", "keep-alive", "Server", "khamsin");
		return this.cache;
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
