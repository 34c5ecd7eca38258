package io.khamsin.benchmark.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link H3Load} in a JVM of its own pinned to the load core, kept up from one run to the next, as h2load (C, no
 * warm-up of its own) is a new process each run. A new JVM each run spent the run compiling itself: profiled by hand,
 * the JIT took 37% of a 14 s generator's CPU, and the server core sat 55-72% busy in the rounds of the campaign before;
 * the same runs from one JVM left the generator's core half idle after two runs and the server's 97% busy. The
 * campaign's warm-up of each target is then the generator's too. One command a run, one line of result back (see
 * {@link H3Load#main}).
 */
public final class H3LoadProcess implements AutoCloseable {

	/** How long after its run's time a run may take to answer: connections, the warm-up second, closing. */
	private static final long GRACE_SECONDS = 60;

	/** What the reader thread queues once the generator's output ends. */
	private static final String EXITED = "\u0000exited";

	private final List<String> command;

	private Process process;

	private Writer commands;

	private BlockingQueue<String> lines;

	/**
	 * @param core the load core
	 */
	public H3LoadProcess(int core) {
		String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
		this.command = List.of("taskset", "-c", Integer.toString(core), java, "-Xmx512m", "-XX:+UseSerialGC", "-cp",
				System.getProperty("java.class.path"), H3Load.class.getName(), H3Load.SERVE);
	}

	/**
	 * One closed-loop run (see {@link H3Load#run}), in the generator's JVM, started first if it is not running.
	 * @param address the target
	 * @param path the path of every request
	 * @param connections QUIC connections
	 * @param streams requests in flight per connection
	 * @param seconds how long to count, after a second of warm-up
	 * @return what was measured
	 * @throws IllegalStateException when the generator cannot start, fails, or does not answer in time; the JVM is
	 * then stopped and the next run starts another
	 */
	public synchronized H3Load.Result run(InetSocketAddress address, String path, int connections, int streams,
			int seconds) {
		List<String> said = new ArrayList<>();
		try {
			if (this.process == null || !this.process.isAlive()) {
				start();
			}
			this.commands.write(String.join(" ", address.getHostString(), Integer.toString(address.getPort()), path,
					Integer.toString(connections), Integer.toString(streams), Integer.toString(seconds)) + "\n");
			this.commands.flush();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds + GRACE_SECONDS);
			while (true) {
				String line = this.lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				if (line == null) {
					throw new IllegalStateException("the HTTP/3 load did not answer within " + GRACE_SECONDS
							+ " s after its " + seconds + " s run" + output(said));
				}
				if (line.equals(EXITED)) {
					throw new IllegalStateException("the HTTP/3 load exited" + output(said));
				}
				said.add(line);
				if (line.startsWith(H3Load.Result.PREFIX)) {
					return H3Load.Result.parse(line);
				}
				if (line.startsWith(H3Load.FAILED_PREFIX)) {
					throw new IllegalStateException("the HTTP/3 load failed" + output(said));
				}
			}
		}
		catch (IOException ex) {
			close();
			throw new IllegalStateException("cannot run the HTTP/3 load: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	private void start() throws IOException {
		Process started = new ProcessBuilder(this.command).redirectErrorStream(true).start();
		BlockingQueue<String> queue = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader output = new BufferedReader(
					new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = output.readLine(); line != null; line = output.readLine()) {
					queue.add(line);
				}
			}
			catch (IOException ex) {
				// the process is gone: said below
			}
			queue.add(EXITED);
		}, "h3load-output");
		reader.setDaemon(true);
		reader.start();
		this.process = started;
		this.commands = new OutputStreamWriter(started.getOutputStream(), StandardCharsets.UTF_8);
		this.lines = queue;
	}

	private static String output(List<String> said) {
		return said.isEmpty() ? "" : ":\n" + String.join("\n", said);
	}

	/** @return the process id of the generator's JVM, or -1 when none runs */
	synchronized long pid() {
		return (this.process != null && this.process.isAlive()) ? this.process.pid() : -1;
	}

	/** Stop the generator's JVM, if it runs: its input closed, then killed if it has not exited a few seconds on. */
	@Override
	public synchronized void close() {
		Process running = this.process;
		this.process = null;
		if (running == null) {
			return;
		}
		try {
			this.commands.close();
			if (!running.waitFor(5, TimeUnit.SECONDS)) {
				running.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (IOException ex) {
			running.destroyForcibly();
		}
		catch (InterruptedException ex) {
			running.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

}
