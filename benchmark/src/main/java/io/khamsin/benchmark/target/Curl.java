package io.khamsin.benchmark.target;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * curl, for the benchmark's own checks of HTTP/2 targets (the JDK's client speaks h2c only by upgrade, and h2load,
 * which measures, speaks it with prior knowledge): one request, and what came back, on which HTTP version.
 */
final class Curl {

	private Curl() {
	}

	/**
	 * Send {@code route}'s request over {@code wire} (h2c with prior knowledge, or h2 over TLS by ALPN, trusting
	 * the run's self-signed certificate).
	 * @return the answer; status 0 when there was none
	 */
	static Answer get(InetSocketAddress address, Route route, Wire wire) {
		Path dir = null;
		try {
			dir = Files.createTempDirectory("khamsin-bench-curl");
			Path body = dir.resolve("body");
			Path headers = dir.resolve("headers");
			List<String> command = new ArrayList<>(List.of("curl", "-s", "--max-time", "10", "-o", body.toString(),
					"-D", headers.toString(), "-w", "%{http_code} %{http_version}", "-X", route.method()));
			command.add(wire.tls() ? "--http2" : "--http2-prior-knowledge");
			if (wire.tls()) {
				command.add("-k");
			}
			if (route.requestBody().length > 0) {
				Path request = Files.write(dir.resolve("request"), route.requestBody());
				command.addAll(List.of("-H", "Content-Type: " + route.contentType(), "--data-binary",
						"@" + request));
			}
			command.add(wire.scheme() + "://" + address.getHostString() + ":" + address.getPort() + route.path());
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			process.waitFor(15, TimeUnit.SECONDS);
			String[] fields = out.split(" ");
			int status = (fields.length == 2 && fields[0].matches("\\d{3}")) ? Integer.parseInt(fields[0]) : 0;
			String contentType = null;
			if (Files.exists(headers)) {
				for (String line : Files.readAllLines(headers, StandardCharsets.ISO_8859_1)) {
					if (line.regionMatches(true, 0, "content-type:", 0, 13)) {
						contentType = line.substring(13).trim();
					}
				}
			}
			return new Answer(status, (fields.length == 2) ? fields[1] : "", contentType,
					Files.exists(body) ? Files.readAllBytes(body) : new byte[0]);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run curl (apt-get install curl): " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			delete(dir);
		}
	}

	private static void delete(Path dir) {
		if (dir == null) {
			return;
		}
		try (var files = Files.list(dir)) {
			for (Path file : files.toList()) {
				Files.delete(file);
			}
			Files.delete(dir);
		}
		catch (IOException ex) {
			// a temporary directory left behind is harmless
		}
	}

	/**
	 * What came back.
	 *
	 * @param status the status, 0 for no answer
	 * @param httpVersion the HTTP version curl says it spoke ({@code 2} for HTTP/2)
	 * @param contentType the content type, or {@code null}
	 * @param body the body
	 */
	record Answer(int status, String httpVersion, String contentType, byte[] body) {

	}

}
