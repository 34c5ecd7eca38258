package io.khamsin.container.cache;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The application behind the page-cache server tests: pages that say how they may be cached, each render counted by
 * path, and a route whose renders wait for the test's gate.
 */
final class CachedPages {

	/** The size of a product page, as a rendered HTML page commonly is. */
	static final int PAGE_SIZE = 50 * 1024;

	private static final String LAST_MODIFIED = DateTimeFormatter.RFC_1123_DATE_TIME
		.format(ZonedDateTime.now(ZoneOffset.UTC).minusDays(1));

	/** Completed to let the renders of {@code /gated/*} answer. */
	final CompletableFuture<Void> gate = new CompletableFuture<>();

	private final Map<String, AtomicLong> renders = new ConcurrentHashMap<>();

	long renders(String path) {
		AtomicLong count = this.renders.get(path);
		return (count != null) ? count.get() : 0;
	}

	private long rendered(ServerRequest request) {
		return this.renders.computeIfAbsent(request.path(), (path) -> new AtomicLong()).incrementAndGet();
	}

	HttpHandler handler() {
		return RouterFunctions.toHttpHandler(RouterFunctions.route()
			.GET("/page/{id}", this::product)
			.GET("/other/{id}", this::product)
			.GET("/lang", (request) -> {
				rendered(request);
				String language = request.headers().firstHeader("Accept-Language");
				return ServerResponse.ok()
					.header("Cache-Control", "public, max-age=60")
					.header("Vary", "Accept-Language")
					.contentType(MediaType.TEXT_PLAIN)
					.bodyValue("fr".equals(language) ? "bonjour" : "hello");
			})
			.GET("/private", (request) -> {
				rendered(request);
				return ServerResponse.ok().header("Cache-Control", "private, max-age=60").bodyValue("yours only");
			})
			.GET("/cookie", (request) -> {
				rendered(request);
				return ServerResponse.ok()
					.header("Cache-Control", "public, max-age=60")
					.header("Set-Cookie", "session=s3cr3t; Path=/")
					.bodyValue("with a cookie");
			})
			.GET("/gated/{id}", (request) -> {
				rendered(request);
				return Mono.fromFuture(this.gate).then(ServerResponse.ok()
					.header("Cache-Control", "public, max-age=60")
					.contentType(MediaType.TEXT_PLAIN)
					.bodyValue("gated " + request.path()));
			})
			.GET("/news", (request) -> ServerResponse.ok()
				.header("Cache-Control", "public, max-age=60")
				.contentType(MediaType.TEXT_PLAIN)
				.bodyValue("news " + rendered(request)))
			.build());
	}

	private Mono<ServerResponse> product(ServerRequest request) {
		rendered(request);
		String id = request.pathVariable("id");
		return ServerResponse.ok()
			.header("Cache-Control", "public, max-age=60")
			.header("ETag", "\"" + id + "-1\"")
			.header("Last-Modified", LAST_MODIFIED)
			.header("Cache-Tag", "page product-" + id)
			.contentType(MediaType.TEXT_HTML)
			.bodyValue(page(id));
	}

	static String page(String id) {
		StringBuilder html = new StringBuilder(PAGE_SIZE).append("<!DOCTYPE html>\n<html><head><title>Product ")
			.append(id)
			.append("</title></head><body><h1>Product ")
			.append(id)
			.append("</h1><ul>\n");
		for (int i = 0; html.length() < PAGE_SIZE - 64; i++) {
			html.append("<li><a href=\"/page/").append(id).append('/').append(i).append("\">Item ").append(i)
				.append("</a></li>\n");
		}
		html.append("</ul></body></html>\n");
		while (html.length() < PAGE_SIZE) {
			html.append(' ');
		}
		html.setLength(PAGE_SIZE);
		return html.toString();
	}

}
