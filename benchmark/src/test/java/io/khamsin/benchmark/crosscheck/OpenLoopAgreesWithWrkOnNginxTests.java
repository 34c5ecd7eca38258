package io.khamsin.benchmark.crosscheck;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.benchmark.load.LoadGenerator;
import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.scenario.Wrk;
import io.khamsin.benchmark.target.Payloads;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;
import io.khamsin.benchmark.target.Targets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generator against wrk on nginx's closed-loop peak: offered twice what wrk reached, the open-loop generator
 * must achieve within 15% of it, or its own core is what limits its figures. Both run as in a campaign: nginx on
 * the server core, wrk and this whole JVM (the generator, its JIT and its collector) on the load core, the
 * generator warmed up and busy-polling; wrk and the generator alternate three times, and the median of the three
 * ratios (generator / wrk, each pair back to back) is the figure, so that a drift of the machine between pairs
 * cancels out rather than falling on one of them. Needs nginx, wrk, both cores and a quiet
 * machine, so it is left out of the default build: {@code mvn -pl benchmark -am verify -Pcrosscheck}.
 */
@Tag("crosscheck")
class OpenLoopAgreesWithWrkOnNginxTests {

	private static final int SERVER_CORE = 0;

	private static final int LOAD_CORE = 1;

	private static final int CONNECTIONS = 64;

	@Test
	void openLoopPeakIsWithin15PercentOfWrkOnNginx(@TempDir Path dir) throws Exception {
		Path wrkBinary = Wrk.find();
		if (Targets.nginxBinary() == null || wrkBinary == null) {
			System.out.println("skipped: the cross-check needs nginx and wrk (apt-get install nginx wrk)");
			Assumptions.abort("nginx or wrk is not installed");
		}
		TargetSpec nginx = Targets.available(null, "", new HashMap<>()).stream()
			.filter((t) -> t.name().equals("nginx"))
			.findFirst()
			.orElseThrow();
		Path files = Payloads.writeFiles(dir.resolve("files"));
		String affinity = pinThisJvm(Integer.toString(LOAD_CORE));
		try (TargetProcess server = TargetProcess.start(nginx, new TargetSpec.Launch(freePort(), files, dir, List.of()),
				SERVER_CORE);
				LoadGenerator generator = new LoadGenerator(new UnpooledByteBufAllocator(true, true))) {
			server.awaitFirstAnswer(30);
			RequestTemplate request = RequestTemplate.get("/plaintext", 13);
			// An earlier version measured a cold generator in an unpinned JVM: its JIT compiled on the server core
			// beside nginx while it was timed, and it read 0.79 of wrk. A campaign warms it first, on its own core.
			generator.run(LoadSpec.closedLoop(server.address(), request, CONNECTIONS, Duration.ZERO,
					Duration.ofSeconds(10)));
			Wrk wrk = new Wrk(wrkBinary, dir, LOAD_CORE);
			List<Double> ratios = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				double peak = wrk.peak(server.address(), Route.PLAINTEXT, CONNECTIONS, 5, false).rate();
				LoadResult open = generator.run(LoadSpec.openLoop(server.address(), request, CONNECTIONS, 2 * peak,
						Duration.ofSeconds(1), Duration.ofSeconds(5)).withDrainTimeout(Duration.ofMillis(500)));
				ratios.add(open.achievedRate() / peak);
				System.out.printf("wrk %.0f req/s, open-loop generator achieved %.0f req/s (offered %.0f): %.2f%n",
						peak, open.achievedRate(), 2 * peak, open.achievedRate() / peak);
			}

			assertThat(median(ratios)).as("open-loop peak / wrk's, per pair %s", ratios).isBetween(0.85, 1.15);
		}
		finally {
			pinThisJvm(affinity);
		}
	}

	/** A port no one listens on: a fixed one could meet another checkout's run and measure its nginx. */
	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		return sorted.get(sorted.size() / 2);
	}

	/**
	 * Pin every thread of this JVM to {@code cpus}, as {@code benchmark/bench} pins the campaign runner.
	 * @return the CPU list it had before
	 */
	private static String pinThisJvm(String cpus) throws IOException, InterruptedException {
		String pid = Long.toString(ProcessHandle.current().pid());
		String before = taskset("-c", "-p", pid);
		taskset("-a", "-c", "-p", cpus, pid);
		return before.substring(before.lastIndexOf(':') + 1).trim();
	}

	private static String taskset(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("taskset"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
		}
		return out;
	}

}
