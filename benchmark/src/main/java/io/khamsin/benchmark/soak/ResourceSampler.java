package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.os.ProcessTree;

/**
 * Reads a process's resident set ({@code VmRSS} of {@code /proc/PID/status}, through {@link ProcessTree}), its open
 * descriptors (the entries of {@code /proc/PID/fd}) and its threads once a second while a soak runs, each sample
 * tagged with the phase the soak was in.
 */
final class ResourceSampler implements AutoCloseable {

	private final long pid;

	private final ProcessTree tree;

	private final long startNanos = System.nanoTime();

	private final List<Sample> samples = new ArrayList<>();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "soak-sampler");
		thread.setDaemon(true);
		return thread;
	});

	private volatile String phase = "start";

	ResourceSampler(long pid) {
		this.pid = pid;
		this.tree = new ProcessTree(pid);
		this.timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
	}

	/** Tag the samples from now on with {@code phase}. */
	void phase(String phase) {
		this.phase = phase;
	}

	/** Take a sample now (besides the one every second) and return it. */
	Sample sample() {
		Sample sample = new Sample((System.nanoTime() - this.startNanos) / 1e9, this.phase, this.tree.rssKb(),
				descriptors(this.pid), threads());
		synchronized (this.samples) {
			this.samples.add(sample);
		}
		return sample;
	}

	/** @return the samples so far, in order */
	List<Sample> samples() {
		synchronized (this.samples) {
			return List.copyOf(this.samples);
		}
	}

	/** @return the open descriptors of {@code pid}, or {@code -1} when it has ended */
	static int descriptors(long pid) {
		try {
			return ProcessTree.openFds(pid);
		}
		catch (IllegalStateException ex) {
			return -1;
		}
	}

	private int threads() {
		try {
			return ProcessTree.threads(this.pid);
		}
		catch (IllegalStateException ex) {
			return -1;
		}
	}

	/** Write the samples as CSV: seconds, phase, rss_kb, fds, threads. */
	void writeCsv(Path file) throws IOException {
		StringBuilder csv = new StringBuilder("seconds,phase,rss_kb,fds,threads\n");
		for (Sample sample : samples()) {
			csv.append(String.format("%.1f,%s,%d,%d,%d%n", sample.seconds(), sample.phase(), sample.rssKb(),
					sample.fds(), sample.threads()));
		}
		Files.writeString(file, csv);
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

	/**
	 * One reading.
	 *
	 * @param seconds since the sampler started
	 * @param phase what the soak was doing
	 * @param rssKb the resident set in kB
	 * @param fds open descriptors
	 * @param threads threads
	 */
	record Sample(double seconds, String phase, long rssKb, int fds, int threads) {
	}

}
