package io.khamsin.benchmark.scenario;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.load.H3Load;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code h3}: HTTP/3 over QUIC, 64 connections of 32 concurrent streams each on the status route, requests per
 * second, as {@code h2-streams-tls} measures HTTP/2 (with 100 streams per connection there). The generator is {@link H3Load} (Netty's QUIC client on one
 * epoll event loop) in a JVM of its own pinned to the load core: h2load, the HTTP/2 generator, has no HTTP/3 in the
 * build Debian ships. Its one event loop, where h2load is C, makes it the likelier limit: the round's note gives the
 * load core's use.
 */
final class H3StreamsScenario extends ClosedLoopScenario {

	static final int CONNECTIONS = 64;

	/**
	 * Requests in flight per connection: 32, not h2-streams' 100. Netty's HTTP/3 client, opening 60 or more streams on a
	 * new connection at once, got no answer at all, from khamsin and from Reactor Netty alike (50 were served); found
	 * while building this scenario and not yet explained.
	 */
	static final int STREAMS = 32;

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
		H3Load.Result run = run(context.settings().loadCore(), target.process().address(), seconds);
		Map<String, Object> counts = new LinkedHashMap<>();
		counts.put("failed", run.failed());
		counts.put("non_2xx", run.non2xx());
		return new Run(run.rate(), run.errors(), run.protocol(), counts, "h3load", run.toString());
	}

	/** Run the generator in a JVM of its own on the load core, and read what it printed. */
	static H3Load.Result run(int core, InetSocketAddress address, int seconds) {
		String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(core), java, "-Xmx512m",
				"-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), H3Load.class.getName(),
				address.getHostString(), Integer.toString(address.getPort()), Route.PLAINTEXT.path(),
				Integer.toString(CONNECTIONS), Integer.toString(STREAMS), Integer.toString(seconds)));
		Path output = null;
		try {
			output = Files.createTempFile("khamsin-bench-h3load", ".out");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				throw new IllegalStateException("the HTTP/3 load did not finish within 60 s after its " + seconds
						+ " s run");
			}
			return H3Load.Result.parse(Files.readString(output, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run the HTTP/3 load: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			if (output != null) {
				try {
					Files.deleteIfExists(output);
				}
				catch (IOException ex) {
					// a temporary file left behind is harmless
				}
			}
		}
	}

}
