package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.target.Payloads;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;
import io.khamsin.benchmark.target.TlsFiles;
import io.khamsin.benchmark.target.Wire;

/**
 * One soak: start the sample app, prime it, read its descriptors and RSS at rest, run every workload at once for the
 * duration, read the RSS after the warm-up and at the end of the load, wait for the descriptors to come back once every
 * client has closed its connections, stop the app and judge the gates.
 */
public final class SoakRun {

	/** The server's heap: fixed and touched at start, so that its RSS moves with native memory, not with the heap. */
	static final List<String> JVM_FLAGS = List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC");

	/** How long the workloads run before the descriptors at rest are read: every lazily opened file is then open. */
	static final Duration PRIME = Duration.ofSeconds(3);

	/** How long the descriptors may take to come back after the last client has closed its connections. */
	static final Duration FD_RETURN = Duration.ofSeconds(20);

	private final SoakSettings settings;

	public SoakRun(SoakSettings settings) {
		this.settings = settings;
	}

	/**
	 * Run the soak and write {@code summary.json}, {@code samples.csv} and the server's log into the run directory.
	 * @return the summary
	 * @throws IOException if the run directory cannot be written
	 */
	public SoakSummary run() throws IOException {
		Path dir = this.settings.runDir();
		Files.createDirectories(dir);
		Path work = dir.resolve("work");
		TlsFiles tls = TlsFiles.generate(work.resolve("tls"));
		Path files = Payloads.writeFiles(work.resolve("files"));
		TargetSpec spec = new TargetSpec("khamsin", true, this::command, "the sample app", "", java.util.Set.of(),
				null, java.util.Set.of(Wire.HTTPS));
		TargetSpec.Launch launch = new TargetSpec.Launch(this.settings.port(), files, dir, JVM_FLAGS, Wire.HTTPS, tls);
		InetSocketAddress address = new InetSocketAddress("127.0.0.1", this.settings.port());
		List<Workload> workloads = SoakWorkloads.all(address, work).stream()
			.filter((workload) -> this.settings.workloads().isEmpty()
					|| this.settings.workloads().contains(workload.name()))
			.toList();
		SoakSummary.Builder summary = new SoakSummary.Builder(this.settings, String.join(" ", command(launch)));
		try (TargetProcess server = TargetProcess.start(spec, launch, -1)) {
			server.awaitFirstAnswer(120);
			try (ResourceSampler sampler = new ResourceSampler(server.pid())) {
				sampler.phase("prime");
				summary.prime(runAll(workloads, PRIME));
				sampler.phase("rest");
				ResourceSampler.Sample rest = awaitSteadyDescriptors(sampler);
				summary.start(rest);
				summary.workloads(load(workloads, sampler, summary));
				sampler.phase("drain");
				summary.end(awaitDescriptors(sampler, rest.fds()));
				summary.alive(server.isAlive());
				sampler.phase("stop");
				sampler.close();
				sampler.writeCsv(dir.resolve("samples.csv"));
				summary.samples(sampler.samples());
			}
		}
		finally {
			deleteRecursively(work);
		}
		SoakSummary result = summary.build();
		result.write(dir.resolve("summary.json"));
		return result;
	}

	private List<String> command(TargetSpec.Launch launch) {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(launch.jvmFlags());
		command.addAll(List.of("-jar", this.settings.jar().toAbsolutePath().toString(),
				"--server.port=" + launch.port(), "--server.address=127.0.0.1",
				"--server.ssl.certificate=" + launch.tls().certificate().toAbsolutePath(),
				"--server.ssl.certificate-private-key=" + launch.tls().privateKey().toAbsolutePath(),
				"--server.http2.enabled=true", "--khamsin.http3.enabled=true",
				"--sample.files.dir=" + launch.filesDir().toAbsolutePath(), "--spring.main.banner-mode=off"));
		return command;
	}

	private Map<String, Workload.Outcome> load(List<Workload> workloads, ResourceSampler sampler,
			SoakSummary.Builder summary) {
		ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
		try {
			sampler.phase("warmup");
			ScheduledFuture<?> warm = timer.schedule(() -> {
				sampler.phase("load");
				summary.afterWarmup(sampler.sample());
			}, this.settings.warmup().toMillis(), TimeUnit.MILLISECONDS);
			ScheduledFuture<?> end = timer.schedule(() -> {
				summary.endOfLoad(sampler.sample());
				sampler.phase("closing");
			}, this.settings.duration().toMillis(), TimeUnit.MILLISECONDS);
			Map<String, Workload.Outcome> outcomes = runAll(workloads, this.settings.duration());
			warm.get();
			end.get();
			return outcomes;
		}
		catch (Exception ex) {
			throw new IllegalStateException("the soak's timer failed: " + ex, ex);
		}
		finally {
			timer.shutdownNow();
		}
	}

	private static Map<String, Workload.Outcome> runAll(List<Workload> workloads, Duration duration) {
		ExecutorService threads = Executors.newFixedThreadPool(workloads.size());
		try {
			Map<String, CompletableFuture<Workload.Outcome>> running = new LinkedHashMap<>();
			for (Workload workload : workloads) {
				running.put(workload.name(), CompletableFuture.supplyAsync(() -> {
					long start = System.nanoTime();
					return Soak.runSafely(workload, duration).took((System.nanoTime() - start) / 1e9);
				}, threads));
			}
			Map<String, Workload.Outcome> outcomes = new LinkedHashMap<>();
			running.forEach((name, outcome) -> outcomes.put(name, outcome.join()));
			return outcomes;
		}
		finally {
			threads.shutdown();
		}
	}

	/**
	 * @return a sample once four readings a second apart hold as many descriptors (at most 20 s): the primed
	 * connections are then closed on both sides
	 */
	private static ResourceSampler.Sample awaitSteadyDescriptors(ResourceSampler sampler) {
		ResourceSampler.Sample last = sampler.sample();
		int same = 0;
		for (int i = 0; i < 20 && same < 3; i++) {
			sleep(Duration.ofSeconds(1));
			ResourceSampler.Sample now = sampler.sample();
			same = (now.fds() == last.fds()) ? same + 1 : 0;
			last = now;
		}
		return last;
	}

	/** @return the first sample with {@code fds} descriptors, or the last one when {@link #FD_RETURN} is over */
	private static ResourceSampler.Sample awaitDescriptors(ResourceSampler sampler, int fds) {
		long deadline = System.nanoTime() + FD_RETURN.toNanos();
		ResourceSampler.Sample now = sampler.sample();
		while (now.fds() != fds && System.nanoTime() < deadline) {
			sleep(Duration.ofMillis(200));
			now = sampler.sample();
		}
		return now;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	private static void deleteRecursively(Path dir) throws IOException {
		if (Files.exists(dir)) {
			try (var paths = Files.walk(dir)) {
				for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
					Files.delete(path);
				}
			}
		}
	}

}
