package io.khamsin.benchmark.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy one CPU core was between two readings of {@code /proc/stat}: the load core's utilisation goes next to
 * every throughput figure, because a saturated load core makes a throughput ratio a lower bound only.
 */
public final class CoreUsage {

	private final int core;

	private final long[] start;

	private CoreUsage(int core) {
		this.core = core;
		this.start = read(core);
	}

	/** Start measuring {@code core}. */
	public static CoreUsage start(int core) {
		return new CoreUsage(core);
	}

	/** @return the share of time the core was busy since the start, in percent */
	public double busyPercent() {
		long[] now = read(this.core);
		long busy = now[0] - this.start[0];
		long total = now[1] - this.start[1];
		return (total > 0) ? 100.0 * busy / total : 0;
	}

	private static long[] read(int core) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
				if (line.startsWith("cpu" + core + " ")) {
					String[] f = line.trim().split("\\s+");
					// idle, iowait, and nice: the campaign's CoreKeeper spins at nice 19 and is no one's work.
					long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]) + Long.parseLong(f[2]);
					long total = 0;
					for (int i = 1; i < Math.min(f.length, 9); i++) {
						total += Long.parseLong(f[i]);
					}
					return new long[] { total - idle, total };
				}
			}
		}
		catch (IOException ex) {
			// not on Linux: report 0
		}
		return new long[] { 0, 0 };
	}

}
