package io.khamsin.benchmark.scenario;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.khamsin.benchmark.os.Tools;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * wrk, the closed-loop reference: its peak throughput goes beside each open-loop figure (never its latency,
 * which is not coordinated-omission corrected). Pinned to the load core with one thread.
 */
public final class Wrk {

	private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

	private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

	private static final Pattern SOCKET_ERRORS = Pattern.compile("Socket errors: (.*)");

	private final Path executable;

	private final Path scripts;

	private final int core;

	/**
	 * @param executable wrk, or {@code null} when it is not installed
	 * @param scripts where to write the Lua scripts for POST routes
	 * @param core the load core
	 */
	public Wrk(Path executable, Path scripts, int core) {
		this.executable = executable;
		this.scripts = scripts;
		this.core = core;
	}

	/** @return wrk where {@link Tools} finds it, or {@code null} */
	public static Path find() {
		return Tools.locate("wrk").orElse(null);
	}

	/** @return whether wrk is installed */
	public boolean available() {
		return this.executable != null;
	}

	/**
	 * Run wrk against {@code route}.
	 * @return requests per second, and whether any answer was an error
	 */
	public Peak peak(InetSocketAddress address, Route route, int connections, int seconds, boolean closeEach) {
		return peak(address, Wire.HTTP1, route, connections, seconds, closeEach);
	}

	/**
	 * Run wrk against {@code route} on {@code wire} (HTTP/1.1, in cleartext or over TLS).
	 * @return requests per second, and whether any answer was an error
	 */
	public Peak peak(InetSocketAddress address, Wire wire, Route route, int connections, int seconds,
			boolean closeEach) {
		if (wire.http2()) {
			throw new IllegalArgumentException("wrk speaks HTTP/1.1 only; h2load measures HTTP/2");
		}
		if (!available()) {
			throw new IllegalStateException("wrk is not installed (apt-get install wrk)");
		}
		List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(this.core),
				this.executable.toString(), "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "5s"));
		if (closeEach) {
			command.addAll(List.of("-H", "Connection: close"));
		}
		try {
			if (route.requestBody().length > 0) {
				command.addAll(List.of("-s", script(route).toString()));
			}
			command.add(wire.scheme() + "://" + address.getHostString() + ":" + address.getPort() + route.path());
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			process.waitFor(seconds + 30L, TimeUnit.SECONDS);
			Matcher rate = RATE.matcher(out);
			if (!rate.find()) {
				throw new IllegalStateException("wrk printed no rate: " + out);
			}
			StringBuilder errors = new StringBuilder();
			Matcher non2xx = NON_2XX.matcher(out);
			if (non2xx.find()) {
				errors.append(non2xx.group(1)).append(" non-2xx answers");
			}
			Matcher socket = SOCKET_ERRORS.matcher(out);
			if (socket.find()) {
				errors.append((errors.length() > 0) ? "; " : "").append("socket errors: ").append(socket.group(1));
			}
			return new Peak(Double.parseDouble(rate.group(1)), errors.toString());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run wrk: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	private Path script(Route route) throws IOException {
		Files.createDirectories(this.scripts);
		Path script = this.scripts.resolve(route.name() + ".lua");
		String body = new String(route.requestBody(), StandardCharsets.UTF_8);
		Files.writeString(script, "wrk.method = \"" + route.method() + "\"\nwrk.body = [==[" + body + "]==]\n"
				+ "wrk.headers[\"Content-Type\"] = \"" + route.contentType() + "\"\n");
		return script;
	}

	/**
	 * A closed-loop peak.
	 *
	 * @param rate requests per second
	 * @param errors what went wrong, empty for nothing
	 */
	public record Peak(double rate, String errors) {

	}

}
