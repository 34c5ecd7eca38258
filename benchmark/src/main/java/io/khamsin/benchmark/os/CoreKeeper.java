package io.khamsin.benchmark.os;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
 * <p>
 * Not while CPU time is counted: each wake-up then switches from the spinner's process to the server's and back,
 * and the server pays for it. Measured here at 5,000 req/s, 3 rounds each: nginx 61-64 us of CPU per request with
 * the spinner, 18-29 us without; khamsin's fixed-response path 71-74 us against 26-38 us. A constant added to every
 * target pulls every CPU ratio towards 1, so {@link #letHalt()} stops the spinner for such a window.
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

	/**
	 * Stop the spinner until the returned handle is closed (SIGSTOP, then SIGCONT), so that the core halts when idle
	 * as it would without a benchmark.
	 * @return the handle that starts the spinner again
	 */
	public Resume letHalt() {
		if (this.spinner == null || !this.spinner.isAlive()) {
			return () -> {
			};
		}
		signal("STOP");
		return () -> signal("CONT");
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.spinner.pid()))
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + this.spinner.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot send SIG" + signal + " to the spinner: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while sending SIG" + signal + " to the spinner", ex);
		}
	}

	/** @return the spinner's pid, or -1 when there is none */
	long spinnerPid() {
		return (this.spinner != null) ? this.spinner.pid() : -1;
	}

	/** Starts the spinner again. */
	@FunctionalInterface
	public interface Resume extends AutoCloseable {

		@Override
		void close();

	}

	@Override
	public void close() {
		if (this.spinner != null) {
			this.spinner.destroyForcibly();
		}
	}

}
