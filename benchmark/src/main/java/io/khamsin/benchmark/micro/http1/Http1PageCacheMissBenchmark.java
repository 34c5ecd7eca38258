package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.PageCacheConfig;

/**
 * What the page cache adds to a request it cannot answer: one whole exchange of a 50 KB cacheable page through
 * the HTTP/1.1 pipeline and the bridge, each request a page not seen before, with no page cache ({@code off}) and
 * with one that looks it up, taps the render, copies and stores it, and evicts to make room ({@code miss}).
 */
public class Http1PageCacheMissBenchmark extends EmbeddedChannelBenchmark {

	static final int PAGE_SIZE = 50 * 1024;

	@Param({ "off", "miss" })
	public String cache;

	DefaultPageCache pageCache;

	private long next;

	@Setup
	public void setUp() {
		byte[] page = new byte[PAGE_SIZE];
		java.util.Arrays.fill(page, (byte) 'x');
		HttpHandler handler = (request, response) -> {
			response.getHeaders().setContentType(MediaType.TEXT_HTML);
			response.getHeaders().setCacheControl("public, max-age=60");
			response.getHeaders().setContentLength(PAGE_SIZE);
			DataBuffer body = response.bufferFactory().wrap(page);
			return response.writeWith(Mono.just(body));
		};
		KhamsinServerConfig.Builder config = KhamsinServerConfig.builder();
		if ("miss".equals(this.cache)) {
			this.pageCache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).build()).build();
			config.pageCache(this.pageCache);
		}
		this.channel = engine(config.build(), handler, "on");
	}

	/** @return the request for a page not asked for before */
	ByteBuf nextRequest() {
		return Unpooled.copiedBuffer("GET /page/" + (this.next++) + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
				StandardCharsets.US_ASCII);
	}

	@Benchmark
	public void exchange(Blackhole blackhole) {
		this.channel.writeInbound(nextRequest());
		this.channel.runPendingTasks();
		consumeOutbound(blackhole);
	}

	@Override
	@TearDown
	public void tearDown() {
		super.tearDown();
		if (this.pageCache != null) {
			this.pageCache.close();
		}
	}

}
