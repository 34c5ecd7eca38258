package io.khamsin.benchmark.target;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.load.H3Load;

/**
 * A running target, pinned with {@code taskset} to the server core. Knows when it started, so that the time to its
 * first answer is the {@code startup} figure.
 */
public final class TargetProcess implements AutoCloseable {

	private final TargetSpec spec;

	private final TargetSpec.Launch launch;

	private final Process process;

	private final long startedNanos;

	private final Path log;

	private TargetProcess(TargetSpec spec, TargetSpec.Launch launch, Process process, long startedNanos, Path log) {
		this.spec = spec;
		this.launch = launch;
		this.process = process;
		this.startedNanos = startedNanos;
		this.log = log;
	}

	/**
	 * Start {@code spec} on {@code core} (on any core when negative); its output goes to
	 * {@code <runDir>/<name>.log}.
	 */
	public static TargetProcess start(TargetSpec spec, TargetSpec.Launch launch, int core) {
		List<String> command = new ArrayList<>((core >= 0) ? List.of("taskset", "-c", Integer.toString(core)) : List.of());
		command.addAll(spec.command().apply(launch));
		try {
			Files.createDirectories(launch.runDir());
			Path log = launch.runDir().resolve(spec.name() + ".log");
			Files.writeString(log, String.join(" ", command) + "\n");
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
			long started = System.nanoTime();
			Process process = builder.start();
			return new TargetProcess(spec, launch, process, started, log);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot start " + spec.name() + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Wait until the target answers {@code GET /plaintext} with 200, polling every 5 ms.
	 * @return milliseconds from process start to the first answer
	 * @throws IllegalStateException if it exits or does not answer within {@code timeoutSeconds}, or accepts
	 * connections for {@link #WRONG_WIRE_SECONDS} without answering on its launch's wire (a server that does not speak
	 * TLS or HTTP/2 where it was asked to)
	 */
	public double awaitFirstAnswer(int timeoutSeconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
		long listening = 0;
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.spec.name() + " exited with " + this.process.exitValue()
						+ " before answering; see " + this.log);
			}
			if (answersPlaintext()) {
				return (System.nanoTime() - this.startedNanos) / 1e6;
			}
			if (listening == 0 && this.launch.wire() != Wire.HTTP1 && !this.launch.wire().http3() && accepts()) {
				listening = System.nanoTime();
			}
			if (listening != 0 && System.nanoTime() - listening > TimeUnit.SECONDS.toNanos(WRONG_WIRE_SECONDS)) {
				throw new IllegalStateException(this.spec.name() + " accepts connections but gave no answer to GET "
						+ "/plaintext on " + this.launch.wire() + " within " + WRONG_WIRE_SECONDS + " s; see " + this.log);
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
		}
		throw new IllegalStateException(this.spec.name() + " did not answer GET /plaintext within " + timeoutSeconds
				+ " s; see " + this.log);
	}

	/** How long a target may accept connections without answering on its wire before it is given up. */
	static final int WRONG_WIRE_SECONDS = 20;

	private boolean accepts() {
		try (Socket socket = new Socket()) {
			socket.connect(address(), 1000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private boolean answersPlaintext() {
		return switch (this.launch.wire()) {
			case HTTP1 -> answersOn(new Socket());
			case HTTPS -> answersOn(tlsSocket());
			case H2C, H2 -> Curl.get(address(), Route.PLAINTEXT, this.launch.wire()).status() == 200;
			case H3 -> H3Load.fetch(address(), Route.PLAINTEXT.path()).status() == 200;
		};
	}

	private static Socket tlsSocket() {
		try {
			return TrustAll.context().getSocketFactory().createSocket();
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot make a TLS socket: " + ex.getMessage(), ex);
		}
	}

	private boolean answersOn(Socket unconnected) {
		try (Socket socket = unconnected) {
			socket.connect(address(), 1000);
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] head = in.readNBytes(12);
			return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** @return where it listens */
	public InetSocketAddress address() {
		return new InetSocketAddress("127.0.0.1", this.launch.port());
	}

	/** @return the target */
	public TargetSpec spec() {
		return this.spec;
	}

	/** @return the pid of the process (taskset execs the command, so this is the server itself) */
	public long pid() {
		return this.process.pid();
	}

	/** @return whether it still runs */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Freeze the process and its descendants (SIGSTOP) while other targets are measured, so that an idle server's
	 * background work (its JIT, GC, timers) cannot steal the server core from the one being measured.
	 */
	public void pause() {
		signal("-STOP");
	}

	/** Thaw a paused process (SIGCONT). */
	public void resume() {
		signal("-CONT");
	}

	private void signal(String signal) {
		List<String> command = new java.util.ArrayList<>(List.of("kill", signal, Long.toString(this.process.pid())));
		this.process.descendants().forEach((child) -> command.add(Long.toString(child.pid())));
		try {
			Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
			kill.getInputStream().readAllBytes();
			kill.waitFor();
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException("could not signal " + this.spec.name() + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stop: SIGTERM, then SIGKILL (with its descendants) after 10 seconds. */
	@Override
	public void close() {
		resume();
		List<ProcessHandle> descendants = this.process.descendants().toList();
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
	}

}
