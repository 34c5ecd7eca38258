package io.khamsin.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /page/{id}}: an HTML product page of about 50 KB (description, specifications, reviews, related
 * products) whose rendering costs {@code sample.page.render-cost}. In {@code cpu} mode the cost is spent hashing the
 * page on the reactor thread, as a template engine spends it; the loop is bounded by that duration. In
 * {@code delay} mode it is spent waiting on a timer. The page may be shared for a minute
 * ({@code Cache-Control: public, max-age=60}) and is tagged {@code page} and {@code product-<id>}
 * ({@code Cache-Tag}) for purges, so that khamsin's page cache, which the sample enables for {@code /page/**},
 * answers it after its first render.
 */
final class PageHandler {

	/** About the size of a product page of a shop: the figure the page cache's benchmark is stated for. */
	static final int PAGE_SIZE = 50 * 1024;

	private static final String CACHE_CONTROL = "public, max-age=60";

	private final SampleProperties.Page settings;

	PageHandler(SampleProperties.Page settings) {
		this.settings = settings;
	}

	Mono<ServerResponse> render(ServerRequest request) {
		String id = request.pathVariable("id");
		Mono<String> html = switch (this.settings.renderMode()) {
			case CPU -> Mono.fromSupplier(() -> html(id, spendCpu(id, this.settings.renderCost())));
			case DELAY -> Mono.delay(this.settings.renderCost()).map((tick) -> html(id, "delay"));
		};
		return html.flatMap((body) -> ServerResponse.ok()
			.contentType(MediaType.TEXT_HTML)
			.header(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL)
			.header("Cache-Tag", "page product-" + id)
			.bodyValue(body));
	}

	private static String spendCpu(String id, Duration cost) {
		MessageDigest sha256 = sha256();
		byte[] digest = id.getBytes(StandardCharsets.UTF_8);
		long deadline = System.nanoTime() + cost.toNanos();
		do {
			digest = sha256.digest(digest);
		}
		while (System.nanoTime() < deadline);
		return HexFormat.of().formatHex(digest, 0, 8);
	}

	static String html(String id, String fingerprint) {
		String name = HtmlUtils.htmlEscape(id);
		StringBuilder html = new StringBuilder(PAGE_SIZE + 2048);
		html.append("""
				<!DOCTYPE html>
				<html lang="en">
				<head>
				<meta charset="utf-8">
				<meta name="viewport" content="width=device-width, initial-scale=1">
				<title>Product %1$s</title>
				<link rel="stylesheet" href="/files/site.css">
				</head>
				<body>
				<header><nav><a href="/">Home</a> &gt; <a href="/page/catalogue">Catalogue</a> &gt; Product %1$s</nav>
				<h1>Product %1$s</h1></header>
				<main>
				<p>Everything about product %1$s: description, price, stock and reviews.</p>
				<ul>
				<li><a href="/page/%1$s/reviews">Reviews</a></li>
				<li><a href="/files/product-%1$s.png">Picture</a></li>
				</ul>
				<section class="description">
				""".formatted(name));
		for (int i = 1; i <= 6; i++) {
			html.append("<p>Product ").append(name).append(", part ").append(i).append(": made to last, tested in ")
				.append("the workshop and in the field, shipped within two working days from the nearest warehouse. ")
				.append("Every order comes with a two-year warranty and free returns within thirty days.</p>\n");
		}
		html.append("</section>\n<table class=\"specifications\">\n");
		for (int i = 1; i <= 24; i++) {
			html.append("<tr><th>Specification ").append(i).append("</th><td>").append(name).append('-')
				.append(i * 7).append(" (").append(10 + i).append(" mm, ").append(100 + 3 * i)
				.append(" g)</td></tr>\n");
		}
		html.append("</table>\n<section class=\"reviews\">\n");
		for (int i = 1; html.length() < PAGE_SIZE - 4096; i++) {
			html.append("<article class=\"review\"><h3>Review ").append(i).append(" of product ").append(name)
				.append("</h3><p class=\"stars\">").append("&#9733;".repeat(1 + i % 5))
				.append("</p><p>Bought it ").append(i % 12 + 1).append(" months ago and it still does what the page ")
				.append("says. Delivery was on time, the packaging was recyclable, and support answered my question ")
				.append("the same day.</p><footer>Customer ").append(1000 + i).append("</footer></article>\n");
		}
		html.append("</section>\n<aside class=\"related\"><h2>Related products</h2><ul>\n");
		for (int i = 1; html.length() < PAGE_SIZE - 200; i++) {
			html.append("<li><a href=\"/page/").append(name).append('-').append(i).append("\">Product ").append(name)
				.append('-').append(i).append("</a></li>\n");
		}
		html.append("</ul></aside>\n</main>\n<footer>rendered by khamsin-sample (").append(fingerprint)
			.append(")</footer>\n</body>\n</html>\n");
		return html.toString();
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every JDK", ex);
		}
	}

}
