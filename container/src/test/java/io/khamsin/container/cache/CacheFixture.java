package io.khamsin.container.cache;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the page cache tests share: requests, an event loop to look up on, a clock the test moves, and renders that
 * play the application answering a miss through its ticket.
 */
public final class CacheFixture implements AutoCloseable {

	public final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);

	public final AtomicLong now = new AtomicLong(1_700_000_000_000L);

	public final AtomicLong renders = new AtomicLong();

	public EventLoop loop() {
		return this.loops.next();
	}

	public PageCacheBuilder builder(PageCacheConfig config) {
		return DefaultPageCache.builder(config).clock(this.now::get);
	}

	public static PageCacheConfig.Builder config() {
		return PageCacheConfig.builder().enabled(true);
	}

	public void advanceSeconds(long seconds) {
		this.now.addAndGet(seconds * 1000);
	}

	public static CacheRequest get(String uri, String... headers) {
		return request(HttpMethod.GET, uri, headers);
	}

	public static CacheRequest request(HttpMethod method, String uri, String... headers) {
		HttpHeaders nettyHeaders = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		nettyHeaders.set("Host", "shop.example");
		for (int i = 0; i < headers.length; i += 2) {
			nettyHeaders.add(headers[i], headers[i + 1]);
		}
		return CacheRequest.of(new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, uri, nettyHeaders), "https");
	}

	/** Look a request up on an event loop, and wait for a deferred answer. */
	public Lookup lookup(DefaultPageCache cache, CacheRequest request) {
		return lookup(cache, request, loop());
	}

	public Lookup lookup(DefaultPageCache cache, CacheRequest request, EventLoop loop) {
		CompletableFuture<Lookup> answer = new CompletableFuture<>();
		loop.execute(() -> {
			Lookup lookup = cache.lookup(request, loop);
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
			throw new AssertionError("no answer to the lookup", ex);
		}
	}

	/** Play the application: answer the miss with a status, headers and a body, and complete the ticket. */
	public void render(Lookup lookup, int status, String body, String... headers) {
		assertThat(lookup).as("a miss to render").isInstanceOf(Lookup.Miss.class);
		render(((Lookup.Miss) lookup).ticket(), status, body, headers);
	}

	public void render(Ticket ticket, int status, String body, String... headers) {
		this.renders.incrementAndGet();
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		HttpHeaders nettyHeaders = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		for (int i = 0; i < headers.length; i += 2) {
			nettyHeaders.add(headers[i], headers[i + 1]);
		}
		nettyHeaders.setInt("Content-Length", bytes.length);
		nettyHeaders.set("Date", DateFormatter.format(new Date(this.now.get())));
		ticket.onHead(status, nettyHeaders);
		ByteBuf part = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
		try {
			ticket.onBody(part);
		}
		finally {
			part.release();
		}
		ticket.complete();
	}

	/** @return the body of a hit, which is released */
	public static String body(Lookup lookup) {
		assertThat(lookup).as("a hit").isInstanceOf(Lookup.Hit.class);
		Lookup.Hit hit = (Lookup.Hit) lookup;
		try {
			return hit.body().toString(StandardCharsets.UTF_8);
		}
		finally {
			hit.release();
		}
	}

	public static void release(Lookup lookup) {
		if (lookup instanceof Lookup.Hit hit) {
			hit.release();
			if (hit.revalidation() != null) {
				hit.revalidation().abandon();
			}
		}
		else if (lookup instanceof Lookup.Miss miss) {
			miss.ticket().abandon();
		}
	}

	/**
	 * A new cache with every default holding one fresh page, as a user's application would have rendered it.
	 * @param path the page's path
	 * @param body its body
	 * @return the cache, which the caller closes
	 */
	public DefaultPageCache cacheWithPage(String path, String body) {
		DefaultPageCache cache = builder(config().build()).build();
		render(lookup(cache, get(path)), 200, body, "Cache-Control", "max-age=60", "Content-Type", "text/plain", "ETag",
				"\"v1\"", "Connection", "keep-alive", "Server", "khamsin");
		return cache;
	}

	/**
	 * The head a hit is written with, as lines of {@code Name: value}, {@code Content-Length} last.
	 * @param hit the hit
	 * @return the lines
	 */
	public static String head(Lookup.Hit hit) {
		CachedHead head = hit.representation().head();
		StringBuilder lines = new StringBuilder();
		head.forEachHeader((name, value) -> lines.append(name).append(": ").append(value).append("\r\n"));
		if (head.contentLength() >= 0) {
			lines.append("Content-Length: ").append(head.contentLength()).append("\r\n");
		}
		return lines.toString();
	}

	@Override
	public void close() {
		this.loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

}
