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

import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.os.Tools;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;

/**
 * {@code slow-attackers}: what slow clients cost everyone else. Each round starts a fresh target, warms it 40 s and
 * with a rehearsal attack of {@value #REHEARSAL_SECONDS} s (the same attackers, then stopped), and measures the p99 of
 * real requests ({@code GET /plaintext}, open loop at {@value #RATE} requests/s over {@value #CONNECTIONS}
 * connections) unloaded; then Debian's slowhttptest opens {@value #SLOWLORIS} slowloris connections (a request head
 * that never ends, a header line every 10 s) and {@value #SLOW_READ} slow-read ones (a 1 MiB file read 32 bytes every
 * 5 s through a 512 to 1024 byte window), both on the load core at nice 19 (they used a quarter of it each at the
 * default priority, which the generator's latencies paid for), and the same real requests are measured while they
 * hold on. The figure is the p99 under attack over the unloaded p99 (goal: at most 2). Then the attackers go on for
 * the rest of their minute, are stopped, and the target's open file descriptors must come back to their count before
 * the attack; the count after, and how many attackers the server had closed itself before the end, are beside the
 * figure, as are the server's threads under attack (io_uring's kernel workers count among them).
 */
final class SlowAttackersScenario extends FreshProcessScenario {

	static final int RATE = 2_000;

	static final int CONNECTIONS = 16;

	static final int SLOWLORIS = 2_000;

	static final int SLOW_READ = 200;

	/** How long slowhttptest keeps its connections, from its start. */
	static final int ATTACK_SECONDS = 60;

	/**
	 * How long the rehearsal attack lasts: past the 10 s header-read timeout of the slowloris connections opened
	 * first, so that their 408s and closes run too.
	 */
	static final int REHEARSAL_SECONDS = 16;

	private static final Duration MEASURE = Duration.ofSeconds(10);

	@Override
	public String name() {
		return "slow-attackers";
	}

	@Override
	public String unit() {
		return "x";
	}

	@Override
	public String headline() {
		return "p99 under attack / unloaded p99";
	}

	@Override
	public String figure() {
		return String.format("p99 of GET /plaintext at %,d req/s while %,d slowloris and %d slow-read connections "
				+ "(slowhttptest) hold on, over its p99 unloaded; open fds after the attack beside", RATE, SLOWLORIS,
				SLOW_READ);
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		Path slowhttptest = Tools.locate("slowhttptest")
			.orElseThrow(() -> new IllegalStateException("slowhttptest is not installed (Debian package slowhttptest)"));
		InetSocketAddress address = process.address();
		RequestTemplate request = RequestTemplate.get(Route.PLAINTEXT.path(), check.bodyLength());
		step(context, process, round, "warming up for 40 s");
		context.generator().run(LoadSpec.closedLoop(address, request, CONNECTIONS, Duration.ZERO,
				Duration.ofSeconds(40)));
		Path logs = context.runDir().resolve("slowhttptest");
		String base = "http://" + address.getHostString() + ":" + address.getPort();
		String tag = process.spec().name() + "-r" + round;
		step(context, process, round, String.format("rehearsal attack for %d s", REHEARSAL_SECONDS));
		rehearse(context, slowhttptest, logs, tag, base);
		sleep(2000);
		int fdsBefore = ProcessTree.openFds(process.pid());
		int threadsBefore = ProcessTree.threads(process.pid());
		LoadResult quiet = context.generator().run(LoadSpec.openLoop(address, request, CONNECTIONS, RATE,
				Duration.ofSeconds(2), MEASURE));
		step(context, process, round, String.format("unloaded p99 %.2f ms; attacking", quiet.p99Millis()));
		List<Process> attackers = new ArrayList<>();
		LoadResult attacked;
		int attackersOpen;
		int threadsUnderAttack;
		int fdsAfter;
		try {
			attackers.addAll(attack(context, slowhttptest, logs, tag, base, ATTACK_SECONDS));
			// The attackers connect at 500 and 200 a second: in place after about 5 s.
			sleep(6000);
			attackersOpen = ProcessTree.openFds(process.pid()) - fdsBefore;
			threadsUnderAttack = ProcessTree.threads(process.pid());
			attacked = context.generator().run(LoadSpec.openLoop(address, request, CONNECTIONS, RATE,
					Duration.ofSeconds(1), MEASURE));
			step(context, process, round, String.format("p99 %.2f ms under attack (%d more fds, %d threads, %d "
					+ "before); waiting the attack out", attacked.p99Millis(), attackersOpen, threadsUnderAttack,
					threadsBefore));
			for (Process attacker : attackers) {
				attacker.waitFor(ATTACK_SECONDS + 30L, TimeUnit.SECONDS);
			}
			int fdsAtEnd = ProcessTree.openFds(process.pid());
			stop(attackers);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			do {
				sleep(500);
				fdsAfter = ProcessTree.openFds(process.pid());
			}
			while (fdsAfter > fdsBefore && System.nanoTime() < deadline);
			Map<String, Object> extras = new LinkedHashMap<>();
			extras.put("p99_unloaded_ms", RateScenario.round1(quiet.p99Millis() * 10) / 10);
			extras.put("p99_attacked_ms", RateScenario.round1(attacked.p99Millis() * 10) / 10);
			extras.put("errors_unloaded", quiet.errors());
			extras.put("errors_attacked", attacked.errors());
			extras.put("first_error", (attacked.firstError() != null) ? attacked.firstError() : quiet.firstError());
			extras.put("fds_before", fdsBefore);
			extras.put("fds_held_by_attackers", attackersOpen);
			extras.put("threads_before", threadsBefore);
			extras.put("threads_under_attack", threadsUnderAttack);
			extras.put("fds_at_attack_end", fdsAtEnd);
			extras.put("fds_after", fdsAfter);
			double ratio = attacked.p99Millis() / quiet.p99Millis();
			String note = ((fdsAfter > fdsBefore) ? String.format("fds %d after the attack, %d before; ", fdsAfter,
					fdsBefore) : "") + ((attacked.errors() > 0) ? attacked.errors() + " real requests failed" : "");
			step(context, process, round, String.format("  %.2fx; fds %d -> %d (%d at the attack's end)", ratio,
					fdsBefore, fdsAfter, fdsAtEnd));
			return Measurement.of(ratio, note, extras, extras);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			stop(attackers);
		}
	}

	/**
	 * A shorter attack of the same shape before anything is measured, the attackers then stopped: the first attack a
	 * JVM sees compiles the code it takes (heads cut short, their timeouts, 408s, closes, files sent a few bytes at a
	 * time), and on a one-core target the compiler's threads take the core from the requests being measured. Warmed
	 * up, the figure is what a server that has been attacked before pays, as the other scenarios measure warmed paths.
	 */
	private static void rehearse(RunContext context, Path slowhttptest, Path logs, String tag, String base) {
		List<Process> attackers = new ArrayList<>();
		try {
			attackers.addAll(attack(context, slowhttptest, logs, tag + "-rehearsal", base, REHEARSAL_SECONDS));
			for (Process attacker : attackers) {
				attacker.waitFor(REHEARSAL_SECONDS + 30L, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			stop(attackers);
		}
	}

	private static List<Process> attack(RunContext context, Path slowhttptest, Path logs, String tag, String base,
			int seconds) {
		try {
			Files.createDirectories(logs);
			List<Process> attackers = new ArrayList<>();
			attackers.add(start(context, slowhttptest, logs.resolve(tag + "-slowloris.log"), "-H", "-c",
					Integer.toString(SLOWLORIS), "-r", "500", "-i", "10", "-s", "8192", "-l", Integer.toString(seconds),
					"-u", base + Route.PLAINTEXT.path()));
			attackers.add(start(context, slowhttptest, logs.resolve(tag + "-slow-read.log"), "-X", "-c",
					Integer.toString(SLOW_READ), "-r", "200", "-w", "512", "-y", "1024", "-n", "5", "-z", "32", "-k",
					"3", "-l", Integer.toString(seconds), "-u", base + Route.FILE_1M.path()));
			return attackers;
		}
		catch (IOException ex) {
			throw new IllegalStateException("slowhttptest could not be started: " + ex.getMessage(), ex);
		}
	}

	private static Process start(RunContext context, Path slowhttptest, Path log, String... arguments)
			throws IOException {
		// On the load core, at the lowest priority: an attacker waits for nothing, while the generator measures from
		// each request's intended send time, so an attacker that took its turns would be charged to the server.
		List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(context.settings().loadCore()),
				"nice", "-n", "19", slowhttptest.toString()));
		command.addAll(List.of(arguments));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private static void stop(List<Process> attackers) {
		for (Process attacker : attackers) {
			if (attacker.isAlive()) {
				attacker.destroy();
			}
		}
		for (Process attacker : attackers) {
			try {
				if (!attacker.waitFor(5, TimeUnit.SECONDS)) {
					attacker.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
