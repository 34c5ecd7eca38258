package io.khamsin.container.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.HEAD;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;

/**
 * The WebFlux routes that engine tests serve: one per behaviour under test.
 */
public final class TestRoutes {

	/** Released to let {@code /slow} answer. */
	public final CountDownLatch slowGate = new CountDownLatch(1);

	/** The events of {@code /sse-on-demand}: each is sent when the test emits it, and the stream ends when it completes. */
	public final Sinks.Many<String> events = Sinks.many().unicast().onBackpressureBuffer();

	private final Path file;

	public TestRoutes(Path file) {
		this.file = file;
	}

	public HttpHandler handler() {
		return RouterFunctions.toHttpHandler(routes());
	}

	private RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route()
			.route(GET("/plaintext").or(HEAD("/plaintext")),
					(request) -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue("Hello, World!"))
			.POST("/echo", (request) -> ServerResponse.ok().body(request.bodyToFlux(DataBuffer.class), DataBuffer.class))
			.POST("/digest", (request) -> digest(request.bodyToFlux(DataBuffer.class), Duration.ZERO))
			.POST("/slow-reader", (request) -> digest(request.bodyToFlux(DataBuffer.class)
				.publishOn(reactor.core.scheduler.Schedulers.boundedElastic(), 1), Duration.ZERO))
			.GET("/stream", (request) -> {
				int count = Integer.parseInt(request.queryParam("count").orElse("5"));
				return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
					.body(Flux.range(1, count).map((i) -> "part-" + i + "\n"), String.class);
			})
			.GET("/sse", (request) -> ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
				.body(Flux.interval(Duration.ofMillis(50)).take(3).map((i) -> "event-" + i), String.class))
			.GET("/sse-on-demand", (request) -> ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
				.body(this.events.asFlux(), String.class))
			.GET("/boom", (request) -> Mono.error(new IllegalStateException("boom")))
			.GET("/status", (request) -> Mono.error(new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT)))
			.GET("/boom-after-commit", (request) -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
				.body(Flux.concat(Flux.just("first\n"), Mono.delay(Duration.ofMillis(20)).then(Mono.error(new IllegalStateException("mid-stream")))), String.class))
			.GET("/boom-right-after-commit", (request) -> ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
				.body(Flux.concat(Flux.just("first", "second"), Mono.error(new IllegalStateException("at once"))), String.class))
			.GET("/slow", (request) -> Mono.fromCallable(() -> {
				this.slowGate.await();
				return "done";
			}).subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()).flatMap((body) -> ServerResponse.ok().bodyValue(body)))
			.GET("/file", (request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_OCTET_STREAM)
				.body(BodyInserters.fromResource(new FileSystemResource(this.file))))
			.GET("/cookie", (request) -> ServerResponse.ok()
				.cookie(ResponseCookie.from("flavour", "ginger").path("/").httpOnly(true).build())
				.bodyValue(request.cookies().getFirst("seen") != null ? request.cookies().getFirst("seen").getValue() : "none"))
			.route(POST("/ignore").or(GET("/ignore")), (request) -> Mono.delay(Duration.ofMillis(20))
				.then(ServerResponse.ok().bodyValue("ignored")))
			.GET("/remote", (request) -> ServerResponse.ok().bodyValue(request.remoteAddress().map((a) -> a.getAddress().getHostAddress()).orElse("?")))
			.GET("/connection", (request) -> ServerResponse.ok().bodyValue(connection(request.exchange().getRequest())))
			.GET("/thread", (request) -> ServerResponse.ok().bodyValue(Thread.currentThread().getName()))
			.build();
	}

	/** What a request knows of its connection: the URI's scheme and the TLS session, one name=value a line. */
	private static String connection(ServerHttpRequest request) {
		SslInfo tls = request.getSslInfo();
		X509Certificate[] peer = (tls != null) ? tls.getPeerCertificates() : null;
		return "scheme=" + request.getURI().getScheme() + "\n" + "session=" + ((tls != null) ? tls.getSessionId() : "none")
				+ "\n" + "peer=" + ((peer != null) ? peer[0].getSubjectX500Principal().getName() : "none") + "\n";
	}

	private static Mono<ServerResponse> digest(Flux<DataBuffer> body, Duration delayPerPart) {
		MessageDigest sha = sha256();
		long[] count = new long[1];
		Flux<DataBuffer> parts = (delayPerPart.isZero()) ? body : body.delayElements(delayPerPart);
		return parts.doOnNext((buffer) -> {
			count[0] += buffer.readableByteCount();
			try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
				it.forEachRemaining(sha::update);
			}
			DataBufferUtils.release(buffer);
		}).then(Mono.defer(() -> ServerResponse.ok().bodyValue(count[0] + " " + HexFormat.of().formatHex(sha.digest()))));
	}

	public static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	public static String sha256Hex(byte[] bytes) {
		return HexFormat.of().formatHex(sha256().digest(bytes));
	}

	static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}

}
