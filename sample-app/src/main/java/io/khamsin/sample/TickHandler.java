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
 * {@code GET /sse?count=N&period=MS}: N server-sent events named {@code tick}, the first at once and each next one
 * {@code period} milliseconds after the one before; WebFlux flushes each event as it is written.
 */
final class TickHandler {

	private static final int MAX_COUNT = 10_000;

	Mono<ServerResponse> stream(ServerRequest request) {
		int count = (int) parameter(request, "count", 5, MAX_COUNT);
		Duration period = Duration.ofMillis(parameter(request, "period", 1000, 60_000));
		// Not Flux.interval: it fails with an overflow when a tick comes while the previous event is still being
		// written. Each tick waits for the period after the one before, and for demand.
		Flux<ServerSentEvent<String>> events = Flux.range(1, count)
			.delayUntil((tick) -> (tick == 1) ? Mono.empty() : Mono.delay(period))
			.map((tick) -> ServerSentEvent.builder("tick " + tick).id(Integer.toString(tick)).event("tick").build());
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
