package io.khamsin.benchmark.target;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.khamsin.benchmark.os.Tools;

/**
 * The run's redis-server for the page cache's shared tier ({@code khamsin-page-shared}): Debian's binary on a free
 * loopback port, without persistence, started when the target is first launched and stopped when the run ends.
 * It runs on the load core with the campaign, off the server core.
 */
public final class BenchRedis {

	private static Process process;

	private static int port;

	private BenchRedis() {
	}

	/** @return redis-server where {@link Tools} finds it, or {@code null} */
	public static Path binary() {
		return Tools.locate("redis-server").orElse(null);
	}

	/**
	 * The port of the run's redis-server, started on first use.
	 * @param runDir where its log goes
	 * @return the port
	 */
	public static synchronized int port(Path runDir) {
		if (process != null && process.isAlive()) {
			return port;
		}
		Path binary = binary();
		if (binary == null) {
			throw new IllegalStateException("redis-server is not installed (apt-get install redis-server)");
		}
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			Files.createDirectories(runDir);
			process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no", "--daemonize", "no")
				.redirectErrorStream(true)
				.redirectOutput(runDir.resolve("redis-" + port + ".log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot start " + binary, ex);
		}
		Process started = process;
		Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!answers(port)) {
			if (System.nanoTime() > deadline || !started.isAlive()) {
				started.destroyForcibly();
				throw new IllegalStateException("redis-server did not start on port " + port + " (see its log in "
						+ runDir + ")");
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		return port;
	}

	private static boolean answers(int port) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
