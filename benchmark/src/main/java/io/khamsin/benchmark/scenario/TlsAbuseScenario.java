package io.khamsin.benchmark.scenario;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.load.ClientTls;
import io.khamsin.benchmark.load.HandshakeFlood;
import io.khamsin.benchmark.load.KeyUpdateFlood;
import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code tls-abuse}: what TLS clients that abuse handshakes cost everyone else. Each round starts a fresh target on
 * TLS, warms it 25 s (15 s of keep-alive requests, then 10 s of the handshake flood), and measures the p99 of real requests
 * ({@code GET /plaintext} over TLS 1.3 keep-alive connections, open loop at {@value #RATE} requests/s over
 * {@value #CONNECTIONS} connections) three times for 10 s: unloaded; under a handshake flood ({@link HandshakeFlood}:
 * {@value #ABANDONED} ClientHellos a second each dropped with a reset once the server has answered, and
 * {@value #SILENT} connections that send a ClientHello and then nothing, each replaced when the server closes it);
 * and under a KeyUpdate flood ({@link KeyUpdateFlood}: {@value #KEY_UPDATE_CONNECTIONS} connections sending
 * KeyUpdates that ask for one back, {@value #KEY_UPDATE_BURST} at a time between two requests). Both attackers run
 * as processes of their own on the load core at nice 19. The figure is the p99 under the handshake flood over the
 * unloaded p99 (goal: at most 2); beside it, the KeyUpdate flood's ratio, the server's CPU (percent of a core) in
 * each window, what each attacker got done, and the server's open file descriptors and TCP sockets before, at the
 * flood's end and once it is over (they must come back).
 */
final class TlsAbuseScenario extends FreshProcessScenario {

	static final int RATE = 100;

	static final int CONNECTIONS = 4;

	static final int ABANDONED = 20;

	static final int SILENT = 200;

	static final int KEY_UPDATE_CONNECTIONS = 4;

	static final int KEY_UPDATE_BURST = 31;

	private static final Duration MEASURE = Duration.ofSeconds(10);

	/** The handshake flood runs this long: 3 s to settle, the measured 10 s, and past the 10 s handshake timeouts. */
	private static final int FLOOD_SECONDS = 20;

	@Override
	public String name() {
		return "tls-abuse";
	}

	@Override
	public String unit() {
		return "x";
	}

	@Override
	public String headline() {
		return "p99 under a handshake flood / unloaded p99";
	}

	@Override
	public Wire wire() {
		return Wire.HTTPS;
	}

	@Override
	public String figure() {
		return String.format("p99 of GET /plaintext over TLS 1.3 at %,d req/s while %d abandoned handshakes a second "
				+ "and %,d silent ones go on, over its p99 unloaded; a KeyUpdate flood (%d connections, %d at a time "
				+ "between requests), server CPU and open fds beside", RATE, ABANDONED, SILENT,
				KEY_UPDATE_CONNECTIONS, KEY_UPDATE_BURST);
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		InetSocketAddress address = process.address();
		RequestTemplate request = RequestTemplate.get(Route.PLAINTEXT.path(), check.bodyLength());
		ProcessTree server = new ProcessTree(process.pid());
		Path logs = context.runDir().resolve("tls-abuse");
		String tag = process.spec().name() + "-r" + round;
		List<Process> attackers = new ArrayList<>();
		try {
			Files.createDirectories(logs);
			step(context, process, round, "warming up for 25 s");
			context.generator().run(LoadSpec.closedLoop(address, request, CONNECTIONS, Duration.ZERO,
					Duration.ofSeconds(15)).withTls(ClientTls.fullHandshakes()));
			Process warm = attacker(context, logs.resolve(tag + "-warm-up.log"), HandshakeFlood.class, address,
					ABANDONED, 0, 10);
			attackers.add(warm);
			warm.waitFor(40, TimeUnit.SECONDS);
			// The generator's open-loop send path, compiled before it is timed.
			openLoop(context, address, request);
			sleep(2000);
			int fdsBefore = ProcessTree.openFds(process.pid());
			int socketsBefore = serverSockets(address.getPort());
			LoadResult[] results = new LoadResult[3];
			double quietCpu = percentOfCore(server, () -> results[0] = openLoop(context, address, request));
			LoadResult quiet = results[0];
			step(context, process, round, String.format("unloaded p99 %.2f ms (server CPU %.0f%%); handshake flood",
					quiet.p99Millis(), quietCpu));

			Path floodLog = logs.resolve(tag + "-handshake-flood.log");
			Process flood = attacker(context, floodLog, HandshakeFlood.class, address, ABANDONED, SILENT,
					FLOOD_SECONDS);
			attackers.add(flood);
			awaitStart(floodLog);
			sleep(3000);
			double floodCpu = percentOfCore(server, () -> results[1] = openLoop(context, address, request));
			LoadResult flooded = results[1];
			int fdsInFlood = ProcessTree.openFds(process.pid());
			int socketsInFlood = serverSockets(address.getPort());
			flood.waitFor(FLOOD_SECONDS + 30L, TimeUnit.SECONDS);
			int fdsAfterFlood = awaitFds(process.pid(), fdsBefore);
			int socketsAfterFlood = awaitSockets(address.getPort(), socketsBefore);
			String floodCounts = lastLine(floodLog);
			step(context, process, round, String.format("p99 %.2f ms under the handshake flood (server CPU %.0f%%, "
					+ "%d fds, %d sockets); %s; after it %d fds, %d sockets; KeyUpdate flood", flooded.p99Millis(),
					floodCpu, fdsInFlood, socketsInFlood, floodCounts, fdsAfterFlood, socketsAfterFlood));

			Path keyUpdateLog = logs.resolve(tag + "-key-update-flood.log");
			Process keyUpdates = attacker(context, keyUpdateLog, KeyUpdateFlood.class, address,
					KEY_UPDATE_CONNECTIONS, KEY_UPDATE_BURST, 15);
			attackers.add(keyUpdates);
			awaitStart(keyUpdateLog);
			sleep(3000);
			double keyUpdateCpu = percentOfCore(server, () -> results[2] = openLoop(context, address, request));
			LoadResult updated = results[2];
			keyUpdates.waitFor(40, TimeUnit.SECONDS);
			int fdsAfter = awaitFds(process.pid(), fdsBefore);
			int socketsAfter = awaitSockets(address.getPort(), socketsBefore);
			String keyUpdateCounts = lastLine(keyUpdateLog);

			double ratio = flooded.p99Millis() / quiet.p99Millis();
			double keyUpdateRatio = updated.p99Millis() / quiet.p99Millis();
			Map<String, Object> extras = new LinkedHashMap<>();
			extras.put("p99_unloaded_ms", round2(quiet.p99Millis()));
			extras.put("p99_handshake_flood_ms", round2(flooded.p99Millis()));
			extras.put("p99_key_update_flood_ms", round2(updated.p99Millis()));
			extras.put("key_update_ratio", round2(keyUpdateRatio));
			extras.put("server_cpu_pct_unloaded", RateScenario.round1(quietCpu));
			extras.put("server_cpu_pct_handshake_flood", RateScenario.round1(floodCpu));
			extras.put("server_cpu_pct_key_update_flood", RateScenario.round1(keyUpdateCpu));
			extras.put("handshake_flood", floodCounts);
			extras.put("key_update_flood", keyUpdateCounts);
			extras.put("errors", quiet.errors() + flooded.errors() + updated.errors());
			extras.put("first_error", (flooded.firstError() != null) ? flooded.firstError()
					: (updated.firstError() != null) ? updated.firstError() : quiet.firstError());
			extras.put("fds_before", fdsBefore);
			extras.put("fds_in_handshake_flood", fdsInFlood);
			extras.put("fds_after_handshake_flood", fdsAfterFlood);
			extras.put("fds_after", fdsAfter);
			extras.put("sockets_before", socketsBefore);
			extras.put("sockets_in_handshake_flood", socketsInFlood);
			extras.put("sockets_after_handshake_flood", socketsAfterFlood);
			extras.put("sockets_after", socketsAfter);
			long errors = flooded.errors() + updated.errors();
			String note = ((fdsAfter > fdsBefore) ? String.format("fds %d after, %d before; ", fdsAfter, fdsBefore)
					: "") + ((socketsAfter > socketsBefore) ? String.format("sockets %d after, %d before; ",
							socketsAfter, socketsBefore) : "") + ((errors > 0) ? errors + " real requests failed" : "");
			step(context, process, round, String.format("  %.2fx under the handshake flood, %.2fx under the KeyUpdate "
					+ "flood (p99 %.2f ms, server CPU %.0f%%; %s); fds %d -> %d, sockets %d -> %d", ratio,
					keyUpdateRatio, updated.p99Millis(), keyUpdateCpu, keyUpdateCounts, fdsBefore, fdsAfter,
					socketsBefore, socketsAfter));
			return Measurement.of(ratio, note, extras, extras);
		}
		catch (IOException ex) {
			throw new IllegalStateException("an attacker could not be started: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			for (Process attacker : attackers) {
				if (attacker.isAlive()) {
					attacker.destroyForcibly();
				}
			}
		}
	}

	private static LoadResult openLoop(RunContext context, InetSocketAddress address, RequestTemplate request) {
		return context.generator().run(LoadSpec.openLoop(address, request, CONNECTIONS, RATE, Duration.ofSeconds(1),
				MEASURE).withTls(ClientTls.fullHandshakes()));
	}

	/** The server's CPU while {@code window} ran, in percent of one core. */
	private static double percentOfCore(ProcessTree server, Runnable window) {
		long cpu = server.cpuNanos();
		long start = System.nanoTime();
		window.run();
		return 100.0 * (server.cpuNanos() - cpu) / (System.nanoTime() - start);
	}

	private static double round2(double value) {
		return Math.round(value * 100) / 100.0;
	}

	/** Waits up to 30 s for the server's open fds to come back to {@code before}; returns the last count. */
	private static int awaitFds(long pid, int before) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		int fds;
		do {
			sleep(500);
			fds = ProcessTree.openFds(pid);
		}
		while (fds > before && System.nanoTime() < deadline);
		return fds;
	}

	/**
	 * Waits up to 60 s for an attacker to say it has begun: a JVM at nice 19 on a busy core took longer than a
	 * measured window to start, which was then measured without its attack.
	 */
	private static void awaitStart(Path log) throws IOException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!Files.readAllLines(log).contains(HandshakeFlood.STARTED)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the attacker did not start within 60 s; see " + log);
			}
			sleep(100);
		}
	}

	/** Waits up to 30 s for the server's sockets to come back to {@code before}; returns the last count. */
	private static int awaitSockets(int port, int before) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		int sockets;
		do {
			sleep(500);
			sockets = serverSockets(port);
		}
		while (sockets > before && System.nanoTime() < deadline);
		return sockets;
	}

	/**
	 * The server's TCP sockets on {@code port} that it has not closed (established, or closed by the client only),
	 * read from {@code /proc/net/tcp} and {@code tcp6}: a server on io_uring may accept into descriptors that the
	 * process's fd table does not list, so its open fds alone do not show the connections it holds.
	 */
	static int serverSockets(int port) {
		String local = String.format(":%04X ", port);
		int count = 0;
		for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
			try {
				for (String line : Files.readAllLines(Path.of(table))) {
					String[] fields = line.trim().split("\\s+");
					// local_address is field 1, st (the state) field 3: 01 established, 08 close wait.
					if (fields.length > 3 && (fields[1] + " ").endsWith(local)
							&& (fields[3].equals("01") || fields[3].equals("08"))) {
						count++;
					}
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("cannot read " + table + ": " + ex.getMessage(), ex);
			}
		}
		return count;
	}

	private static String lastLine(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log);
		return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
	}

	/**
	 * Starts one of the attackers' mains in a JVM of its own on the load core at the lowest priority: an attacker
	 * waits for nothing, while the generator measures from each request's intended send time, so an attacker that
	 * took its turns would be charged to the server.
	 */
	private static Process attacker(RunContext context, Path log, Class<?> main, InetSocketAddress address,
			int first, int second, int seconds) throws IOException {
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = List.of("taskset", "-c", Integer.toString(context.settings().loadCore()), "nice", "-n",
				"19", java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), main.getName(),
				address.getHostString(), Integer.toString(address.getPort()), Integer.toString(first),
				Integer.toString(second), Integer.toString(seconds));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

}
