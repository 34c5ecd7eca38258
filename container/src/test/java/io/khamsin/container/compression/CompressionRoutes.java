package io.khamsin.container.compression;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * What the compression tests ask a real khamsin server for, written as an application writes it to Spring's
 * response, so that the bridge compresses it:
 * <ul>
 * <li>{@code /json}: {@value #JSON_SIZE} bytes of JSON in one buffer, compressed on the event loop;
 * {@code /large}: {@value #LARGE_SIZE} bytes, compressed off it; {@code /small}: below the threshold;
 * {@code /image}: a type not compressed; {@code /encoded}: a body the application encoded itself;
 * {@code /stream}: JSON in many parts of a stream; {@code /file}: a file ({@code server.compression} leaves a file
 * region alone);</li>
 * <li>{@code /events}: server-sent events that the test sends one at a time ({@link #sendEvent}, {@link #endEvents}),
 * each written and flushed as WebFlux writes an event; {@code /broken}: two events, then an application error.</li>
 * </ul>
 */
final class CompressionRoutes implements HttpHandler {

	static final int JSON_SIZE = 60_000;

	static final int LARGE_SIZE = 2 * 1024 * 1024;

	static final byte[] JSON = Bodies.json(JSON_SIZE);

	static final byte[] LARGE = Bodies.json(LARGE_SIZE);

	static final byte[] SMALL = Bodies.json(100);

	static final byte[] IMAGE = Bodies.random(10_000);

	/** The compression the routes are served with. */
	static final CompressionConfig CONFIG = CompressionConfig.of(true,
			java.util.List.of("application/json", "text/event-stream"), 2048, java.util.List.of());

	final CountDownLatch streamClosed = new CountDownLatch(1);

	private final Path file;

	private volatile Sinks.Many<String> events;

	CompressionRoutes(Path file) {
		this.file = file;
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		return switch (request.getPath().value()) {
			case "/json" -> whole(response, MediaType.APPLICATION_JSON, JSON);
			case "/large" -> whole(response, MediaType.APPLICATION_JSON, LARGE);
			case "/small" -> whole(response, MediaType.APPLICATION_JSON, SMALL);
			case "/image" -> whole(response, MediaType.IMAGE_PNG, IMAGE);
			case "/encoded" -> {
				response.getHeaders().set(HttpHeaders.CONTENT_ENCODING, "gzip");
				yield whole(response, MediaType.APPLICATION_JSON, JSON);
			}
			case "/stream" -> {
				response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
				yield response.writeWith(Flux.range(0, JSON_SIZE / 1000)
					.map((i) -> response.bufferFactory().wrap(java.util.Arrays.copyOfRange(JSON, i * 1000, i * 1000 + 1000))));
			}
			case "/file" -> {
				response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
				yield ((ZeroCopyHttpOutputMessage) response).writeWith(this.file, 0, fileSize());
			}
			case "/events" -> events(response, false);
			case "/broken" -> events(response, true);
			default -> {
				response.setStatusCode(HttpStatus.NOT_FOUND);
				yield response.setComplete();
			}
		};
	}

	private static Mono<Void> whole(ServerHttpResponse response, MediaType type, byte[] body) {
		response.getHeaders().setContentType(type);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	private Mono<Void> events(ServerHttpResponse response, boolean broken) {
		response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
		Flux<String> events;
		if (broken) {
			events = Flux.concat(Flux.just("data: one\n\n", "data: two\n\n"),
					Mono.error(new IllegalStateException("the application failed mid-stream")));
		}
		else {
			Sinks.Many<String> sink = Sinks.many().unicast().onBackpressureBuffer();
			events = sink.asFlux().doOnCancel(this.streamClosed::countDown);
			this.events = sink;
		}
		return response.writeAndFlushWith(events.map((event) -> Mono.just(buffer(response, event))));
	}

	private static DataBuffer buffer(ServerHttpResponse response, String text) {
		return response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8));
	}

	private long fileSize() {
		try {
			return Files.size(this.file);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/** Send one event of the open {@code /events} stream. */
	void sendEvent(String event) {
		this.events.tryEmitNext(event).orThrow();
	}

	/** End the open {@code /events} stream. */
	void endEvents() {
		this.events.tryEmitComplete().orThrow();
	}

	boolean streamOpen() {
		return this.events != null;
	}

}
