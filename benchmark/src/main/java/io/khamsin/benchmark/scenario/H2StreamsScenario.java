package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code h2-streams} (h2c) and {@code h2-streams-tls} (h2 over TLS): h2load with 64 connections of 100 concurrent
 * streams each on the status route, requests per second. Each round takes one run of the campaign's peak length;
 * a round with failed requests or non-2xx answers says so in its note.
 */
final class H2StreamsScenario implements Scenario {

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
	public String unit() {
		return "req/s";
	}

	@Override
	public boolean higherIsBetter() {
		return true;
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
	public List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	private H2load h2load(RunContext context) {
		return new H2load(H2load.find(), context.settings().loadCore());
	}

	@Override
	public WarmUp warmUp(RunContext context, RunningTarget target) {
		Settings settings = context.settings();
		WarmUp.Rule rule = WarmUp.Rule.of(settings, target.process().spec().jvm());
		H2load h2load = h2load(context);
		WarmUp warmUp = rule.run((seconds) -> {
			H2load.Run run = h2load.run(target.process().address(), this.wire, Route.PLAINTEXT, CONNECTIONS, STREAMS,
					(int) Math.round(seconds));
			context.progress().step(target.name(), 0, settings.rounds(), String.format("  %,.0f req/s%s", run.rate(),
					run.errors().isEmpty() ? "" : " (" + run.errors() + ")"));
			return run.rate();
		});
		context.progress().step(target.name(), 0, settings.rounds(), "warm-up: " + warmUp.describe());
		return warmUp;
	}

	@Override
	public Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		Settings settings = context.settings();
		CoreUsage load = CoreUsage.start(settings.loadCore());
		CoreUsage server = CoreUsage.start(settings.serverCore());
		H2load.Run run = h2load(context).run(target.process().address(), this.wire, Route.PLAINTEXT, CONNECTIONS,
				STREAMS, settings.peakSeconds());
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("load_cpu_pct", RateScenario.round1(load.busyPercent()));
		extras.put("server_cpu_pct", RateScenario.round1(server.busyPercent()));
		extras.put("failed", run.failed());
		extras.put("non_2xx", run.non2xx());
		extras.put("protocol", run.protocol());
		String note = run.errors();
		context.progress().step(target.name(), round, settings.rounds(), String.format("%,.0f req/s over %s%s",
				run.rate(), run.protocol(), note.isEmpty() ? "" : " (" + note + ")"));
		return Measurement.of(note.isEmpty() ? run.rate() : 0, note, extras, Map.of("h2load", run.toString()));
	}

}
