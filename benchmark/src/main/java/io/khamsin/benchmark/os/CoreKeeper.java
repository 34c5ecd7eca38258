package io.khamsin.benchmark.os;

import java.io.IOException;
import java.util.List;

/**
 * Keeps a core from halting while a campaign runs: a spinning shell at idle scheduling priority
 * ({@code SCHED_IDLE}, nice 19) pinned to it, which runs only when nothing else wants the core.
 * <p>
 * Why: on a virtual machine a halted vCPU takes from a fraction of a millisecond to several milliseconds to wake,
 * and every request at a modest rate finds the server core halted. Measured here with nginx at 2,000 req/s and a
 * warm generator: p99 2.1 to 6.8 ms with the server core free to halt, 0.13 ms with it kept awake; the same holds
 * for every target, so it is the machine's figure, not the server's. The spinner's time is {@code nice} time in
 * {@code /proc/stat}, which {@link CoreUsage} does not count as busy, and it is never part of a target's own CPU
 * time.
 */
public final class CoreKeeper implements AutoCloseable {

	private final Process spinner;

	private CoreKeeper(Process spinner) {
		this.spinner = spinner;
	}

	/**
	 * Start keeping {@code core} awake, or do nothing (with the reason on standard error) when {@code taskset},
	 * {@code nice} or {@code chrt} is missing.
	 */
	public static CoreKeeper start(int core) {
		try {
			Process spinner = new ProcessBuilder(List.of("taskset", "-c", Integer.toString(core), "nice", "-n", "19",
					"chrt", "-i", "0", "sh", "-c", "while :; do :; done"))
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return new CoreKeeper(spinner);
		}
		catch (IOException ex) {
			System.err.println("the server core may halt between requests (" + ex.getMessage() + ")");
			return new CoreKeeper(null);
		}
	}

	@Override
	public void close() {
		if (this.spinner != null) {
			this.spinner.destroyForcibly();
		}
	}

}
