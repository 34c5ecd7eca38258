package io.khamsin.container.http1.smuggling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * Debian's nginx or HAProxy as a reverse proxy in front of khamsin, started by a test from a configuration it writes
 * in a temporary directory, and stopped with it. Each listens twice on free loopback ports, for HTTP/1.1 and for
 * HTTP/2 with prior knowledge, and forwards both as HTTP/1.1 over connections to khamsin that it keeps and reuses
 * between clients, which is where a disagreement about where a request ends shows.
 */
final class ReverseProxy implements AutoCloseable {

	/** The proxies, with their binaries and Debian packages. */
	enum Kind {

		NGINX("nginx", Path.of("/usr/sbin/nginx"), "nginx"),

		HAPROXY("haproxy", Path.of("/usr/sbin/haproxy"), "haproxy");

		private final String id;

		private final Path binary;

		private final String debianPackage;

		Kind(String id, Path binary, String debianPackage) {
			this.id = id;
			this.binary = binary;
			this.debianPackage = debianPackage;
		}

		String id() {
			return this.id;
		}

		/** Skip the calling test, saying why, unless the binary is installed. */
		void assumeInstalled() {
			boolean installed = Files.isExecutable(this.binary);
			if (!installed) {
				System.out.println("Skipped: " + this.binary + " is not installed (apt-get install " + this.debianPackage
						+ ")");
			}
			Assumptions.assumeTrue(installed, this.binary + " is not installed (apt-get install " + this.debianPackage + ")");
		}

		/** @return the first line of the binary's version, as {@code nginx -v} or {@code haproxy -v} print it */
		String version() {
			try {
				Process process = new ProcessBuilder(this.binary.toString(), "-v").redirectErrorStream(true).start();
				String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				process.waitFor(10, TimeUnit.SECONDS);
				return output.lines().findFirst().orElse("?").trim();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "?";
			}
		}

	}

	private final Kind kind;

	private final Process process;

	private final int h1Port;

	private final int h2Port;

	private ReverseProxy(Kind kind, Process process, int h1Port, int h2Port) {
		this.kind = kind;
		this.process = process;
		this.h1Port = h1Port;
		this.h2Port = h2Port;
	}

	/**
	 * Start a proxy in front of khamsin.
	 * @param kind which
	 * @param dir a directory of its own for its configuration, logs and temporary files
	 * @param upstreamPort khamsin's port on the loopback address
	 * @return the running proxy, accepting connections
	 */
	static ReverseProxy start(Kind kind, Path dir, int upstreamPort) throws IOException {
		kind.assumeInstalled();
		int h1Port = freePort();
		int h2Port = freePort();
		List<String> command = switch (kind) {
			case NGINX -> {
				Path config = Files.writeString(dir.resolve("nginx.conf"), nginx(dir, upstreamPort, h1Port, h2Port));
				yield List.of(kind.binary.toString(), "-p", dir.toString(), "-e", dir.resolve("error.log").toString(), "-c",
						config.toString());
			}
			case HAPROXY -> {
				Path config = Files.writeString(dir.resolve("haproxy.cfg"), haproxy(upstreamPort, h1Port, h2Port));
				yield List.of(kind.binary.toString(), "-db", "-f", config.toString());
			}
		};
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(dir.resolve("output.log").toFile())
			.start();
		ReverseProxy proxy = new ReverseProxy(kind, process, h1Port, h2Port);
		try {
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				if (!process.isAlive()) {
					throw new IllegalStateException(kind.id + " did not start: "
							+ Files.readString(dir.resolve("output.log")) + readIfExists(dir.resolve("error.log")));
				}
				return accepts(h1Port) && accepts(h2Port);
			});
		}
		catch (RuntimeException ex) {
			proxy.close();
			throw ex;
		}
		return proxy;
	}

	private static String nginx(Path dir, int upstreamPort, int h1Port, int h2Port) {
		return """
				daemon off;
				master_process off;
				worker_processes 1;
				pid %1$s/nginx.pid;
				error_log %1$s/error.log warn;
				events {
				    worker_connections 256;
				}
				http {
				    access_log off;
				    client_body_temp_path %1$s/client_body;
				    proxy_temp_path %1$s/proxy;
				    fastcgi_temp_path %1$s/fastcgi;
				    uwsgi_temp_path %1$s/uwsgi;
				    scgi_temp_path %1$s/scgi;
				    client_header_timeout 2s;
				    client_body_timeout 2s;
				    keepalive_timeout 10s;
				    upstream khamsin {
				        server 127.0.0.1:%2$d;
				        keepalive 4;
				    }
				    server {
				        listen 127.0.0.1:%3$d;
				        listen 127.0.0.1:%4$d http2;
				        location / {
				            proxy_pass http://khamsin;
				            proxy_http_version 1.1;
				            proxy_set_header Connection "";
				            proxy_read_timeout 5s;
				        }
				    }
				}
				""".formatted(dir, upstreamPort, h1Port, h2Port);
	}

	private static String haproxy(int upstreamPort, int h1Port, int h2Port) {
		return """
				global
				    maxconn 256
				    nbthread 1
				defaults
				    mode http
				    timeout connect 2s
				    timeout client 5s
				    timeout server 5s
				    timeout http-request 2s
				    timeout http-keep-alive 5s
				    http-reuse always
				frontend clients
				    bind 127.0.0.1:%2$d
				    bind 127.0.0.1:%3$d proto h2
				    default_backend khamsin
				backend khamsin
				    server khamsin 127.0.0.1:%1$d
				""".formatted(upstreamPort, h1Port, h2Port);
	}

	Kind kind() {
		return this.kind;
	}

	int h1Port() {
		return this.h1Port;
	}

	int h2Port() {
		return this.h2Port;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static String readIfExists(Path file) throws IOException {
		return Files.exists(file) ? Files.readString(file) : "";
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
