package io.khamsin.sample;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Event streams that a test feeds one event at a time, so that it can check that each event reaches the client
 * before the next one exists: proof of a flush per event that no timing can fake.
 */
final class GatedEvents {

	private final Map<String, Sinks.Many<String>> streams = new ConcurrentHashMap<>();

	/**
	 * Opens a stream that {@code GET /sse/gated/{name}} will serve.
	 * @param name the stream's name
	 * @return the sink to feed; events fed before the request arrives are kept for it
	 */
	Sinks.Many<String> open(String name) {
		Sinks.Many<String> sink = Sinks.many().unicast().onBackpressureBuffer();
		this.streams.put(name, sink);
		return sink;
	}

	Flux<String> stream(String name) {
		Sinks.Many<String> sink = this.streams.remove(name);
		if (sink == null) {
			return Flux.error(new IllegalStateException("No gated stream named " + name));
		}
		return sink.asFlux();
	}

}
