package io.khamsin.container.cache.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * A real Redis for a test: Debian's {@code redis-server} on a free loopback port, with no persistence, stopped with
 * the test. A test is skipped, with a printed reason, when the binary is not installed.
 */
public final class RedisServer implements AutoCloseable {

	private static final Path BINARY = Path.of("/usr/bin/redis-server");

	private final int port;

	private final Process process;

	private RedisServer(int port, Process process) {
		this.port = port;
		this.process = process;
	}

	public static void assumeInstalled() {
		if (!Files.isExecutable(BINARY)) {
			System.out.println("Skipped: " + BINARY + " is not installed (apt-get install redis-server)");
		}
		Assumptions.assumeTrue(Files.isExecutable(BINARY), "redis-server is not installed (apt-get install redis-server)");
	}

	public static RedisServer start() {
		assumeInstalled();
		int port = freePort();
		try {
			Process process = new ProcessBuilder(BINARY.toString(), "--port", Integer.toString(port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			RedisServer server = new RedisServer(port, process);
			await().atMost(Duration.ofSeconds(30)).until(server::answersPing);
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException("redis-server did not start", ex);
		}
	}

	public int port() {
		return this.port;
	}

	public String uri() {
		return "redis://127.0.0.1:" + this.port;
	}

	public boolean answersPing() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 1000);
			socket.setSoTimeout(1000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			int read = in.read(reply);
			return read > 0 && new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** Stop Redis as a crash would: at once, the clients' connections reset. */
	public void stop() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		stop();
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
