package io.khamsin.benchmark.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.os.Tools;

/**
 * The benchmark's second HTTP/3 load generator: ngtcp2's C client {@code gtlsclient} (Debian's ngtcp2-client), which
 * spends about 7 µs of CPU per request where {@link H3Load}'s one Java event loop saturates the load core before the
 * server's. {@code processes} copies run at once, each pinned to the load core and one QUIC connection that sends
 * {@code requestsPerProcess} {@code GET}s of one path, as many streams in flight as the server grants, and exits once
 * every stream is closed; each copy is started again as soon as it exits, until the time is over, and the copies
 * running then are let finish and counted. gtlsclient prints no figures of its own: a copy that exits 0 and prints
 * nothing on standard error counts all its requests completed; any other copy, or one still running a minute after it
 * started, counts them all failed. Standard error is read because gtlsclient (0.12, Debian 12's) exits 0 also when its
 * connection failed (a handshake timeout, the server's {@code CONNECTION_CLOSE}, an idle timeout) and says so only
 * there, which {@code --quiet} leaves to errors. A clean run says that every stream was closed, not which status each
 * answer had, nor that none was reset: the campaign's integrity check reads the answers before the first round.
 */
public final class Ngtcp2Load {

	/** The program, on the search path of {@link Tools}. */
	static final String PROGRAM = "gtlsclient";

	/** The flags of every run: nothing printed but errors, and an exit once every stream is closed. */
	private static final List<String> FLAGS = List.of("--quiet", "--no-quic-dump", "--no-http-dump",
			"--exit-on-all-streams-close");

	/** How long one copy may run before it is stopped and its requests count as failed. */
	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final List<String> program;

	private final Duration timeout;

	/**
	 * @param program the command that starts one copy, before its flags and arguments
	 * @param timeout how long one copy may run
	 */
	Ngtcp2Load(List<String> program, Duration timeout) {
		this.program = List.copyOf(program);
		this.timeout = timeout;
	}

	/**
	 * Load a target with copies of gtlsclient pinned to {@code core}.
	 * @param core the load core
	 * @param address the target
	 * @param path the path of every request
	 * @param processes copies at once, one QUIC connection each
	 * @param requestsPerProcess requests of each copy
	 * @param seconds how long to start copies again; those running then are let finish
	 * @return what was measured
	 * @throws IllegalStateException when gtlsclient is not installed or cannot be started
	 */
	public static Result run(int core, InetSocketAddress address, String path, int processes, int requestsPerProcess,
			int seconds) {
		Path executable = Tools.locate(PROGRAM)
			.orElseThrow(() -> new IllegalStateException(PROGRAM + " is not installed (apt-get install ngtcp2-client)"));
		return new Ngtcp2Load(List.of("taskset", "-c", Integer.toString(core), executable.toString()), TIMEOUT)
			.load(address, path, processes, requestsPerProcess, seconds);
	}

	/** As {@link #run}, with this generator's program. */
	Result load(InetSocketAddress address, String path, int processes, int requestsPerProcess, int seconds) {
		if (processes < 1) {
			throw new IllegalArgumentException("processes must be at least 1, not " + processes);
		}
		if (requestsPerProcess < 1) {
			throw new IllegalArgumentException("requestsPerProcess must be at least 1, not " + requestsPerProcess);
		}
		List<String> command = new ArrayList<>(this.program);
		command.addAll(FLAGS);
		command.addAll(List.of("-n", Integer.toString(requestsPerProcess), address.getHostString(),
				Integer.toString(address.getPort()),
				"https://" + address.getHostString() + ":" + address.getPort() + path));
		ExecutorService pool = Executors.newFixedThreadPool(processes);
		try {
			long start = System.nanoTime();
			long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
			List<Future<Copies>> loops = new ArrayList<>();
			for (int i = 0; i < processes; i++) {
				loops.add(pool.submit(() -> loop(command, deadline)));
			}
			long completed = 0;
			long failed = 0;
			long end = start;
			String failure = "";
			for (Future<Copies> loop : loops) {
				Copies copies = loop.get();
				completed += copies.completed() * (long) requestsPerProcess;
				failed += copies.failed() * (long) requestsPerProcess;
				end = Math.max(end, copies.end());
				failure = copies.failure().isEmpty() ? failure : copies.failure();
			}
			return new Result(completed * 1e9 / (end - start), completed, failed, processes, failure);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("cannot run " + PROGRAM + ": " + ex.getCause().getMessage(), ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** One copy after another until the deadline; on a thread of its own. */
	private Copies loop(List<String> command, long deadline) throws IOException, InterruptedException {
		Path errors = Files.createTempFile("khamsin-bench-gtlsclient", ".err");
		try {
			int completed = 0;
			int failed = 0;
			String failure = "";
			do {
				Optional<String> ended = copy(command, errors);
				if (ended.isEmpty()) {
					completed++;
				}
				else {
					failed++;
					failure = ended.get();
				}
			}
			while (System.nanoTime() - deadline < 0);
			return new Copies(completed, failed, failure, System.nanoTime());
		}
		finally {
			try {
				Files.deleteIfExists(errors);
			}
			catch (IOException ex) {
				// a temporary file left behind is harmless
			}
		}
	}

	/** Run one copy: empty when it completed, else how it ended. */
	private Optional<String> copy(List<String> command, Path errors) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(errors.toFile())
			.start();
		try {
			if (!process.waitFor(this.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				return Optional.of(PROGRAM + " still running after " + this.timeout.toSeconds() + " s, stopped");
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			throw ex;
		}
		String line = lastLine(errors);
		if (process.exitValue() == 0 && line.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(PROGRAM + ((process.exitValue() != 0) ? " exited " + process.exitValue() : "")
				+ (line.isEmpty() ? "" : ": " + line));
	}

	private static String lastLine(Path errors) throws IOException {
		if (Files.size(errors) == 0) {
			return "";
		}
		String[] lines = new String(Files.readAllBytes(errors), StandardCharsets.UTF_8).split("\n");
		for (int i = lines.length - 1; i >= 0; i--) {
			if (!lines[i].isBlank()) {
				return lines[i].strip();
			}
		}
		return "";
	}

	/** What one loop's copies did, and when its last one ended. */
	private record Copies(int completed, int failed, String failure, long end) {
	}

	/**
	 * What a run measured.
	 * @param rate completed requests per second, from the start until the last copy ended
	 * @param completed the requests of the copies that exited 0 with nothing on standard error
	 * @param failed the requests of the other copies
	 * @param processes copies at once
	 * @param failure how a copy that failed ended, empty for none
	 */
	public record Result(double rate, long completed, long failed, int processes, String failure) {

		@Override
		public String toString() {
			return PROGRAM + ": rate=" + this.rate + " completed=" + this.completed + " failed=" + this.failed
					+ " processes=" + this.processes + (this.failure.isEmpty() ? "" : " failure=" + this.failure);
		}

		/** @return what went wrong, empty for nothing */
		public String errors() {
			return (this.failed > 0) ? this.failed + " requests failed (last: " + this.failure + ")" : "";
		}

	}

}
