package io.khamsin.benchmark.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * One soak run.
 *
 * @param tier {@code smoke} (the build's, 60 s) or {@code extended} (by hand, 10 min)
 * @param duration how long the load runs, warm-up included
 * @param warmup the first part of the load, after which the RSS the end is held to is read
 * @param jar the sample app's executable jar
 * @param runDir where the summary, the samples and the server's log go
 * @param port the server's TCP port for HTTP/1.1 and HTTP/2 over TLS, and its UDP port for HTTP/3
 * @param workloads the names of the workloads to run ({@code h1-churn}, ...), empty for all of them
 */
public record SoakSettings(String tier, Duration duration, Duration warmup, Path jar, Path runDir, int port,
		Set<String> workloads) {

	/** The smoke tier's load: a minute, of which the first half warms up. */
	public static final Duration SMOKE = Duration.ofSeconds(60);

	/** The extended tier's load: ten minutes, of which the first two warm up. */
	public static final Duration EXTENDED = Duration.ofMinutes(10);

	public SoakSettings {
		if (!"smoke".equals(tier) && !"extended".equals(tier)) {
			throw new IllegalArgumentException("tier must be smoke or extended, was " + tier);
		}
		workloads = Set.copyOf(workloads);
		if (duration.compareTo(warmup) <= 0) {
			throw new IllegalArgumentException("duration (" + duration + ") must be longer than warmup (" + warmup
					+ ")");
		}
	}

	/**
	 * A tier's settings: its duration unless {@code duration} is given, and its warm-up: half a smoke run's
	 * minute, a fifth of any longer run (at least a minute).
	 * @param duration the load's length, or {@code null} for the tier's
	 */
	public static SoakSettings of(String tier, Duration duration, Path jar, Path runDir, int port,
			Set<String> workloads) {
		Duration load = (duration != null) ? duration : ("smoke".equals(tier) ? SMOKE : EXTENDED);
		Duration warmup = (load.compareTo(Duration.ofMinutes(5)) < 0) ? load.dividedBy(2)
				: Duration.ofSeconds(Math.max(60, load.toSeconds() / 5));
		return new SoakSettings(tier, load, warmup, jar, runDir, port, workloads);
	}

}
