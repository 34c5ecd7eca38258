package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code h2-streams} (h2c) and {@code h2-streams-tls} (h2 over TLS): h2load with 64 connections of 100 concurrent
 * streams each on the status route, requests per second. Each round takes one run of the campaign's peak length;
 * a round with failed requests or non-2xx answers says so in its note.
 */
final class H2StreamsScenario extends ClosedLoopScenario {

	static final int CONNECTIONS = 64;

	static final int STREAMS = 100;

	private final String name;

	private final Wire wire;

	H2StreamsScenario(String name, Wire wire) {
		this.name = name;
		this.wire = wire;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String figure() {
		return String.format("GET /plaintext over %s, %d connections x %d concurrent streams (h2load -t1): req/s",
				this.wire.tls() ? "HTTP/2 on TLS 1.3 (ALPN h2)" : "h2c (prior knowledge)", CONNECTIONS, STREAMS);
	}

	@Override
	public String headline() {
		return "closed loop (h2load)";
	}

	@Override
	public Wire wire() {
		return this.wire;
	}

	@Override
	protected Run load(RunContext context, RunningTarget target, int seconds) {
		H2load.Run run = new H2load(H2load.find(), context.settings().loadCore()).run(target.process().address(),
				this.wire, Route.PLAINTEXT, CONNECTIONS, STREAMS, seconds);
		Map<String, Object> counts = new LinkedHashMap<>();
		counts.put("failed", run.failed());
		counts.put("non_2xx", run.non2xx());
		return new Run(run.rate(), run.errors(), run.protocol(), counts, "h2load", run.toString());
	}

}
