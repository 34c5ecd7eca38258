package io.khamsin.benchmark.scenario;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.khamsin.benchmark.load.Ngtcp2Load;
import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code h3-ngtcp2}: HTTP/3 over QUIC on the status route, requests per second, as {@code h3} measures it, with ngtcp2's
 * C client as the generator ({@link Ngtcp2Load}: 16 gtlsclient processes on the load core, one QUIC connection each,
 * as many concurrent streams as the server grants). {@code h3}'s generator, Netty's Java client on one event loop,
 * saturates the load core before the server's (measured: load core at 81-98%, server core at 40-65%), so its figure is
 * the generator's limit; gtlsclient spends about 7 µs of CPU per request and keeps the server's core busy, so this
 * figure is the server's. It complements {@code h3}, which stays on Netty's client as its issue asked.
 */
final class H3Ngtcp2Scenario implements Scenario {

	static final int PROCESSES = 16;

	/**
	 * Requests of each gtlsclient process, on its one connection, before it exits and the next one starts: 20,000, as
	 * with 5,000 each connection's start (its handshake, then streams granted as the first ones close) took enough
	 * of the run to leave the server's core 20-25% idle; with 20,000 it was 91-95% busy (measured by hand).
	 */
	static final int REQUESTS = 20000;

	@Override
	public String name() {
		return "h3-ngtcp2";
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
		return String.format(Locale.ROOT, "GET /plaintext over HTTP/3 (QUIC, TLS 1.3), %d connections, each as many "
				+ "concurrent streams as the server grants (ngtcp2's gtlsclient, one process per connection, %,d "
				+ "requests a connection): req/s", PROCESSES, REQUESTS);
	}

	@Override
	public String headline() {
		return "closed loop (ngtcp2 client)";
	}

	@Override
	public Wire wire() {
		return Wire.H3;
	}

	@Override
	public List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	@Override
	public WarmUp warmUp(RunContext context, RunningTarget target) {
		Settings settings = context.settings();
		WarmUp.Rule rule = WarmUp.Rule.of(settings, target.process().spec().jvm());
		WarmUp warmUp = rule.run((seconds) -> {
			Ngtcp2Load.Result run = run(settings.loadCore(), target.process().address(), (int) Math.round(seconds));
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
		Ngtcp2Load.Result run = run(settings.loadCore(), target.process().address(), settings.peakSeconds());
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("load_cpu_pct", RateScenario.round1(load.busyPercent()));
		extras.put("server_cpu_pct", RateScenario.round1(server.busyPercent()));
		extras.put("failed", run.failed());
		extras.put("protocol", "h3");
		String note = run.errors();
		context.progress().step(target.name(), round, settings.rounds(), String.format("%,.0f req/s over h3%s",
				run.rate(), note.isEmpty() ? "" : " (" + note + ")"));
		return Measurement.of(note.isEmpty() ? run.rate() : 0, note, extras, Map.of("gtlsclient", run.toString()));
	}

	private static Ngtcp2Load.Result run(int core, InetSocketAddress address, int seconds) {
		return Ngtcp2Load.run(core, address, Route.PLAINTEXT.path(), PROCESSES, REQUESTS, seconds);
	}

}
