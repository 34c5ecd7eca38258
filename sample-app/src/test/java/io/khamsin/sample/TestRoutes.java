package io.khamsin.sample;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebFilter;

/**
 * Routes that only the integration suite needs: failing handlers, a slow reader, streams without a length,
 * cookies, the peer's address, the TLS session, and a filter that adds to the response what a test asks for. Added as a source of the test application (not component-scanned).
 */
class TestRoutes {

	@Bean
	GatedEvents gatedEvents() {
		return new GatedEvents();
	}

	/**
	 * Adds a cookie, a header and a header set at commit to the response of a request that asks for them with
	 * {@code X-Probe}, as an authentication or session filter would.
	 */
	@Bean
	WebFilter probeFilter() {
		return (exchange, chain) -> {
			String probe = exchange.getRequest().getHeaders().getFirst("X-Probe");
			if (probe != null) {
				ServerHttpResponse response = exchange.getResponse();
				response.addCookie(ResponseCookie.from("probe", probe).path("/").httpOnly(true).build());
				response.getHeaders().set("X-Probe-Filter", probe);
				response.beforeCommit(() -> Mono.fromRunnable(() -> response.getHeaders().set("X-Probe-Commit", probe)));
			}
			return chain.filter(exchange);
		};
	}

	@Bean
	RouterFunction<ServerResponse> integrationRoutes(GatedEvents gatedEvents) {
		return RouterFunctions.route()
			.GET("/lines", TestRoutes::lines)
			.POST("/upload/slow", TestRoutes::slowUpload)
			.GET("/sse/gated/{name}", (request) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(gatedEvents.stream(request.pathVariable("name")), String.class))
			.GET("/boom", (request) -> Mono.error(new IllegalStateException("boom before commit")))
			.GET("/boom-mid-stream", TestRoutes::boomMidStream)
			.GET("/cookies/set", TestRoutes::setCookies)
			.GET("/cookies", TestRoutes::readCookies)
			.GET("/addresses", TestRoutes::addresses)
			.GET("/tls/session", TestRoutes::tlsSession)
			.build();
	}

	/**
	 * {@code GET /lines?count=N}: N text lines as a stream of unknown length, so the body goes out chunked.
	 */
	private static Mono<ServerResponse> lines(ServerRequest request) {
		int count = Integer.parseInt(request.queryParam("count").orElse("100"));
		Flux<String> lines = Flux.range(1, count).map((n) -> "line " + n + "\n");
		return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).body(lines, String.class);
	}

	/**
	 * {@code POST /upload/slow}: like {@code /upload}, but pauses 1 ms after every 64th buffer and asks for one
	 * buffer at a time, so the client writes faster than the handler reads and the container must hold back.
	 */
	private static Mono<ServerResponse> slowUpload(ServerRequest request) {
		UploadDigest digest = new UploadDigest();
		AtomicLong buffers = new AtomicLong();
		return request.body(BodyExtractors.toDataBuffers())
			.concatMap((buffer) -> {
				UploadHandler.consume(digest, buffer);
				return (buffers.incrementAndGet() % 64 == 0) ? Mono.delay(Duration.ofMillis(1)).then()
						: Mono.<Void>empty();
			}, 0)
			.then(Mono.fromSupplier(digest::receipt))
			.flatMap((receipt) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(receipt));
	}

	/**
	 * {@code GET /boom-mid-stream}: an event stream whose first event is flushed (the response is committed) and
	 * which then fails.
	 */
	private static Mono<ServerResponse> boomMidStream(ServerRequest request) {
		Flux<String> events = Flux.just("partial")
			.concatWith(Mono.delay(Duration.ofMillis(50))
				.then(Mono.error(new IllegalStateException("boom after commit"))));
		return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(events, String.class);
	}

	/**
	 * {@code GET /cookies/set?name=value...}: sets one cookie per query parameter.
	 */
	private static Mono<ServerResponse> setCookies(ServerRequest request) {
		return ServerResponse.noContent()
			.cookies((cookies) -> request.queryParams()
				.forEach((name, values) -> cookies.add(name,
						ResponseCookie.from(name, values.get(0)).path("/").httpOnly(true).build())))
			.build();
	}

	/**
	 * {@code GET /cookies}: the request's cookies, one {@code name=value} a line, sorted by name.
	 */
	private static Mono<ServerResponse> readCookies(ServerRequest request) {
		String cookies = request.cookies()
			.values()
			.stream()
			.flatMap((values) -> values.stream().map((cookie) -> cookie.getName() + "=" + cookie.getValue()))
			.sorted()
			.collect(Collectors.joining("\n"));
		return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue(cookies);
	}

	/**
	 * {@code GET /addresses}: {@code remote=host:port local=host:port} as the handler sees them.
	 */
	private static Mono<ServerResponse> addresses(ServerRequest request) {
		String body = "remote=" + request.remoteAddress().map(TestRoutes::hostAndPort).orElse("unknown")
				+ " local=" + request.localAddress().map(TestRoutes::hostAndPort).orElse("unknown");
		return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue(body);
	}

	/**
	 * {@code GET /tls/session}: {@code scheme=... peer=...}, the request's scheme and the subject of the client's
	 * certificate ({@code none} without one).
	 */
	private static Mono<ServerResponse> tlsSession(ServerRequest request) {
		SslInfo tls = request.exchange().getRequest().getSslInfo();
		X509Certificate[] peer = (tls != null) ? tls.getPeerCertificates() : null;
		String body = "scheme=" + request.uri().getScheme() + " peer="
				+ ((peer != null && peer.length > 0) ? peer[0].getSubjectX500Principal().getName() : "none");
		return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue(body);
	}

	private static String hostAndPort(InetSocketAddress address) {
		return address.getAddress().getHostAddress() + ":" + address.getPort();
	}

}
