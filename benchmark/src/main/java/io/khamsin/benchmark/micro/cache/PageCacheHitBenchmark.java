package io.khamsin.benchmark.micro.cache;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.khamsin.container.cache.CacheRequest;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.Ticket;
import io.khamsin.container.http1.Http1HitWriter;

/**
 * One page-cache hit as the HTTP/1.1 exchange stage will serve it, on an {@code EmbeddedChannel}: the lookup of a
 * decoded request head (key, Caffeine read, freshness, coding), then the entry's pre-encoded head with
 * {@code Date} and {@code Age} and its body written to the channel. {@code small} is the 13-byte status body (copied
 * behind the head), {@code page} a 50 KB HTML page (written as a duplicate of the entry's direct buffer); with and
 * without {@code Accept-Encoding: gzip}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PageCacheHitBenchmark {

	@Param({ "small", "page" })
	public String body;

	@Param({ "identity", "gzip" })
	public String encoding;

	EmbeddedChannel channel;

	DefaultPageCache cache;

	HttpRequest request;

	private ChannelHandlerContext ctx;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
		this.ctx = this.channel.pipeline().firstContext();
		this.cache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).offLoopVariantSize(1 << 20).build())
			.build();
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders()
			.set("Host", "127.0.0.1:8080")
			.set("Accept", "text/html");
		if ("gzip".equals(this.encoding)) {
			headers.set("Accept-Encoding", "gzip, deflate, br, zstd");
		}
		this.request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/page/42", headers);
		byte[] bytes = ("small".equals(this.body) ? "Hello, World!" : page(50 * 1024))
			.getBytes(StandardCharsets.UTF_8);
		Lookup miss = this.cache.lookup(CacheRequest.of(this.request, "http"), this.channel.eventLoop());
		Ticket ticket = ((Lookup.Miss) miss).ticket();
		HttpHeaders response = DefaultHttpHeadersFactory.headersFactory().newHeaders()
			.set("Content-Type", "text/html;charset=utf-8")
			.set("Cache-Control", "public, max-age=86400")
			.setInt("Content-Length", bytes.length);
		ticket.onHead(200, response);
		ByteBuf part = Unpooled.wrappedBuffer(bytes);
		ticket.onBody(part);
		part.release();
		ticket.complete();
		// The first hit makes the gzip variant, as the first client that accepts it would.
		hit(null);
	}

	static String page(int bytes) {
		StringBuilder html = new StringBuilder("<!doctype html><html><body><ul>\n");
		for (int i = 0; html.length() < bytes - 20; i++) {
			html.append("<li><a href=\"/page/").append(i).append("\">Item ").append(i).append(" of the catalogue</a></li>\n");
		}
		return html.append("</ul></body></html>").toString();
	}

	@Benchmark
	public void hit(Blackhole blackhole) {
		writeHit();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			if (blackhole != null) {
				blackhole.consume(message);
			}
			ReferenceCountUtil.release(message);
		}
	}

	void writeHit() {
		Lookup.Hit hit = (Lookup.Hit) this.cache.lookup(CacheRequest.of(this.request, "http"), this.channel.eventLoop());
		Http1HitWriter.write(this.ctx, hit, false, false, this.ctx.voidPromise());
		this.channel.flush();
	}

	@TearDown
	public void tearDown() {
		this.channel.finishAndReleaseAll();
		this.cache.close();
	}

}
