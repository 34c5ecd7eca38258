package io.khamsin.benchmark.micro.cache;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
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

import io.khamsin.container.cache.CacheRequest;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.Ticket;

/**
 * What a stored miss costs the page cache on top of the render: the lookup, the ticket's copy of a 50 KB body
 * written in {@code parts} parts (as a streamed response writes them; one for a {@code Mono} body) into one pooled
 * direct buffer, and the store that replaces the previous entry. The request says {@code no-cache}, so that every
 * operation misses and stores.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TicketCaptureBenchmark {

	@Param({ "1", "8" })
	public int parts;

	EmbeddedChannel channel;

	DefaultPageCache cache;

	HttpRequest request;

	ByteBuf[] body;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel();
		this.cache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).build()).build();
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders()
			.set("Host", "127.0.0.1:8080")
			.set("Cache-Control", "no-cache");
		this.request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/page/42", headers);
		byte[] page = PageCacheHitBenchmark.page(50 * 1024).getBytes(StandardCharsets.UTF_8);
		this.body = new ByteBuf[this.parts];
		int size = page.length / this.parts;
		for (int i = 0; i < this.parts; i++) {
			int length = (i == this.parts - 1) ? page.length - i * size : size;
			this.body[i] = PooledByteBufAllocator.DEFAULT.directBuffer(length).writeBytes(page, i * size, length);
		}
	}

	@Benchmark
	public boolean capture() {
		Lookup miss = this.cache.lookup(CacheRequest.of(this.request, "http"), this.channel.eventLoop());
		Ticket ticket = ((Lookup.Miss) miss).ticket();
		HttpHeaders response = DefaultHttpHeadersFactory.headersFactory().newHeaders()
			.set("Content-Type", "text/html;charset=utf-8")
			.set("Cache-Control", "public, max-age=86400");
		if (this.parts == 1) {
			response.setInt("Content-Length", this.body[0].readableBytes());
		}
		ticket.onHead(200, response);
		for (ByteBuf part : this.body) {
			ticket.onBody(part);
		}
		ticket.complete();
		return ticket.isCapturing();
	}

	@TearDown
	public void tearDown() {
		for (ByteBuf part : this.body) {
			part.release();
		}
		this.channel.finishAndReleaseAll();
		this.cache.close();
	}

}
