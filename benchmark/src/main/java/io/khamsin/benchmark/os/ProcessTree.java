package io.khamsin.benchmark.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A process and its descendants as /proc shows them (nginx answers from a worker, a child of its master): CPU time
 * from {@code /proc/PID/stat} (utime + stime) and memory from {@code /proc/PID/smaps_rollup} and
 * {@code /proc/PID/status}, summed over the tree.
 */
public final class ProcessTree {

	/** Clock ticks per second of utime and stime ({@code getconf CLK_TCK}; 100 on Linux x86-64). */
	public static final long TICKS_PER_SECOND = 100;

	private final long pid;

	public ProcessTree(long pid) {
		this.pid = pid;
	}

	/** @return the pid of the root */
	public long pid() {
		return this.pid;
	}

	/** @return the root and every descendant, root first */
	public List<Long> pids() {
		List<Long> tree = new ArrayList<>();
		tree.add(this.pid);
		List<long[]> parents = new ArrayList<>();
		try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
			entries.forEach((entry) -> {
				String name = entry.getFileName().toString();
				if (name.chars().allMatch(Character::isDigit)) {
					long[] stat = parentOf(Long.parseLong(name));
					if (stat != null) {
						parents.add(stat);
					}
				}
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot list /proc: " + ex.getMessage(), ex);
		}
		for (int i = 0; i < tree.size(); i++) {
			long parent = tree.get(i);
			for (long[] child : parents) {
				if (child[1] == parent && !tree.contains(child[0])) {
					tree.add(child[0]);
				}
			}
		}
		return tree;
	}

	private static long[] parentOf(long pid) {
		String[] fields = statFields(pid);
		return (fields != null) ? new long[] { pid, Long.parseLong(fields[1]) } : null;
	}

	/** Fields of /proc/PID/stat after the command name: index 0 is state, 1 ppid, 11 utime, 12 stime. */
	private static String[] statFields(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
			return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/** @return CPU time (user + system) of the whole tree so far, in clock ticks */
	public long cpuTicks() {
		long ticks = 0;
		for (long member : pids()) {
			String[] fields = statFields(member);
			if (fields != null) {
				ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
		}
		return ticks;
	}

	/**
	 * CPU time of the whole tree so far, in nanoseconds, from the scheduler's own account of each thread
	 * ({@code /proc/PID/task/TID/schedstat}, first field) rather than from clock ticks: utime and stime are sampled
	 * at each tick, too coarse for a server that wakes for tens of microseconds per request. A thread that ends
	 * between two readings takes its time with it, so a window should hold a steady set of threads.
	 * @return the nanoseconds, or -1 when this kernel keeps no schedstat
	 */
	public long cpuNanos() {
		long nanos = 0;
		for (long member : pids()) {
			try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(member), "task"))) {
				for (Path task : tasks.toList()) {
					nanos += runNanos(task.resolve("schedstat"));
				}
			}
			catch (IOException ex) {
				// the process ended meanwhile
			}
		}
		return nanos;
	}

	/** @return whether this kernel keeps {@code /proc/PID/schedstat} (CONFIG_SCHED_INFO) */
	public static boolean hasSchedstat() {
		return Files.isReadable(Path.of("/proc/self/schedstat"));
	}

	private static long runNanos(Path schedstat) {
		try {
			String line = Files.readString(schedstat);
			return Long.parseLong(line.substring(0, line.indexOf(' ')));
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	/** @return the proportional set size of the tree in kB (shared pages split between their users) */
	public long pssKb() {
		return sumField("smaps_rollup", "Pss:");
	}

	/** @return the resident set size of the tree in kB */
	public long rssKb() {
		return sumField("status", "VmRSS:");
	}

	private long sumField(String file, String field) {
		long total = 0;
		for (long member : pids()) {
			try {
				for (String line : Files.readAllLines(Path.of("/proc", Long.toString(member), file))) {
					if (line.startsWith(field)) {
						total += Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
					}
				}
			}
			catch (IOException ex) {
				// the process ended meanwhile
			}
		}
		return total;
	}

	/**
	 * @param pid a process
	 * @return the file descriptors the process has open: its sockets, files and the JVM's own
	 * @throws IllegalStateException if they cannot be read (the process ended)
	 */
	public static int openFds(long pid) {
		return entries(pid, "fd", "the open files");
	}

	/**
	 * @param pid a process
	 * @return the threads of the process, the kernel's among them: io_uring's workers ({@code iou-wrk}) are threads
	 * of the process that made the ring
	 * @throws IllegalStateException if they cannot be read (the process ended)
	 */
	public static int threads(long pid) {
		return entries(pid, "task", "the threads");
	}

	private static int entries(long pid, String directory, String what) {
		try (Stream<Path> entries = Files.list(Path.of("/proc", Long.toString(pid), directory))) {
			return (int) entries.count();
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot count " + what + " of " + pid + ": " + ex.getMessage(), ex);
		}
	}

}
