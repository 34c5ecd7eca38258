package io.khamsin.sample;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebInputException;

/**
 * {@code GET /sse?count=N&period=MS}: N server-sent events named {@code tick}, the first at once and then one every
 * {@code period} milliseconds; WebFlux flushes each event as it is written.
 */
final class TickHandler {

	private static final int MAX_COUNT = 10_000;

	Mono<ServerResponse> stream(ServerRequest request) {
		int count = (int) parameter(request, "count", 5, MAX_COUNT);
		Duration period = Duration.ofMillis(parameter(request, "period", 1000, 60_000));
		// Each tick waits for the previous one to be written (concatMap over a delay), so a slow client or a busy
		// server delays the stream instead of failing it, as Flux.interval would once demand runs out.
		Flux<ServerSentEvent<String>> events = Flux.range(0, count)
			.concatMap((index) -> (index == 0) ? Mono.just(index.longValue())
					: Mono.delay(period).thenReturn(index.longValue()))
			.map((index) -> ServerSentEvent.builder("tick " + (index + 1))
				.id(Long.toString(index + 1))
				.event("tick")
				.build());
		return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(events, ServerSentEvent.class);
	}

	private static long parameter(ServerRequest request, String name, long defaultValue, long max) {
		String value = request.queryParam(name).orElse(null);
		if (value == null) {
			return defaultValue;
		}
		try {
			long parsed = Long.parseLong(value);
			if (parsed >= 1 && parsed <= max) {
				return parsed;
			}
		}
		catch (NumberFormatException ex) {
			// answered below
		}
		throw new ServerWebInputException("'" + name + "' must be a number from 1 to " + max);
	}

}
