package io.khamsin.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /page/{id}}: an HTML product page whose rendering costs {@code sample.page.render-cost}. In
 * {@code cpu} mode the cost is spent hashing the page on the reactor thread, as a template engine spends it; the
 * loop is bounded by that duration. In {@code delay} mode it is spent waiting on a timer.
 */
final class PageHandler {

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
		return html.flatMap((body) -> ServerResponse.ok().contentType(MediaType.TEXT_HTML).bodyValue(body));
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

	private static String html(String id, String fingerprint) {
		String name = HtmlUtils.htmlEscape(id);
		return """
				<!DOCTYPE html>
				<html lang="en">
				<head>
				<meta charset="utf-8">
				<title>Product %1$s</title>
				</head>
				<body>
				<header><h1>Product %1$s</h1></header>
				<main>
				<p>Everything about product %1$s: description, price, stock and reviews.</p>
				<ul>
				<li><a href="/page/%1$s/reviews">Reviews</a></li>
				<li><a href="/files/product-%1$s.png">Picture</a></li>
				</ul>
				</main>
				<footer>rendered by khamsin-sample (%2$s)</footer>
				</body>
				</html>
				""".formatted(name, fingerprint);
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
