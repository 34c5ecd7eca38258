package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

import io.khamsin.benchmark.load.H3Load;
import io.khamsin.benchmark.load.H3LoadProcess;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code h3}: HTTP/3 over QUIC, 64 connections of 100 concurrent streams each on the status route, requests per
 * second, as {@code h2-streams-tls} measures HTTP/2. The generator is {@link H3Load} (Netty's QUIC client on one
 * epoll event loop) in a JVM of its own pinned to the load core and kept up from the first warm-up run to the last
 * round ({@link H3LoadProcess}): h2load, the HTTP/2 generator, has no HTTP/3 in the build Debian ships. Warm, it
 * leaves the server's core the full one (99% busy, its own 35-67% in {@code 2026-12-07T2347-vm-3118d1a}); the
 * round's note gives both cores' use.
 */
final class H3StreamsScenario extends ClosedLoopScenario {

	static final int CONNECTIONS = 64;

	/**
	 * Requests in flight per connection: 100, as h2-streams. A request waits for a stream while the server has granted
	 * none ({@code MAX_STREAMS}); until the generator waited for the grant instead of trying again every millisecond,
	 * 60 or more got almost no answers and the scenario ran 32.
	 */
	static final int STREAMS = 100;

	/** The generator's JVM, started by the first run and kept warm until {@link #finish}. */
	private H3LoadProcess generator;

	@Override
	public String name() {
		return "h3";
	}

	@Override
	public String figure() {
		return String.format("GET /plaintext over HTTP/3 (QUIC, TLS 1.3), %d connections x %d concurrent streams "
				+ "(Netty's HTTP/3 client, one event loop): req/s", CONNECTIONS, STREAMS);
	}

	@Override
	public String headline() {
		return "closed loop (HTTP/3 client)";
	}

	@Override
	public Wire wire() {
		return Wire.H3;
	}

	@Override
	protected Run load(RunContext context, RunningTarget target, int seconds) {
		if (this.generator == null) {
			this.generator = new H3LoadProcess(context.settings().loadCore());
		}
		H3Load.Result run = this.generator.run(target.process().address(), Route.PLAINTEXT.path(), CONNECTIONS,
				STREAMS, seconds);
		Map<String, Object> counts = new LinkedHashMap<>();
		counts.put("failed", run.failed());
		counts.put("non_2xx", run.non2xx());
		return new Run(run.rate(), run.errors(), run.protocol(), counts, "h3load", run.toString());
	}

	@Override
	public void finish() {
		if (this.generator != null) {
			this.generator.close();
			this.generator = null;
		}
	}

}
