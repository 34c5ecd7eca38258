package io.khamsin.benchmark.scenario;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;

import io.khamsin.benchmark.load.Ngtcp2Load;
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
final class H3Ngtcp2Scenario extends ClosedLoopScenario {

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
	protected Run load(RunContext context, RunningTarget target, int seconds) {
		Ngtcp2Load.Result run = run(context.settings().loadCore(), target.process().address(), seconds);
		return new Run(run.rate(), run.errors(), "h3", Map.of("failed", run.failed()), "gtlsclient",
				run.toString());
	}

	private static Ngtcp2Load.Result run(int core, InetSocketAddress address, int seconds) {
		return Ngtcp2Load.run(core, address, Route.PLAINTEXT.path(), PROCESSES, REQUESTS, seconds);
	}

}
