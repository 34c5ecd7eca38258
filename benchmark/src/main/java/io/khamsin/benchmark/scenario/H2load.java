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
 * h2load (nghttp2), the HTTP/2 load: many streams at once on each of a few connections, h2c with prior knowledge in
 * cleartext and ALPN h2 over TLS. One thread, pinned to the load core; its requests per second are the figure, its
 * failed and errored requests and non-2xx answers count as errors.
 */
public final class H2load {

	private static final Pattern RATE = Pattern.compile("finished in [\\d.]+\\w*, ([\\d.]+) req/s");

	private static final Pattern REQUESTS = Pattern.compile(
			"requests: (\\d+) total, \\d+ started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, "
					+ "(\\d+) timeout");

	private static final Pattern STATUS = Pattern.compile("status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");

	private static final Pattern DATA = Pattern.compile("traffic: .*, [\\d.]+\\w*B \\((\\d+)\\) data");

	private static final Pattern PROTOCOL = Pattern.compile("Application protocol: (\\S+)");

	private final Path executable;

	private final int core;

	H2load(Path executable, int core) {
		this.executable = executable;
		this.core = core;
	}

	/** @return h2load where {@link Tools} finds it, or {@code null} */
	public static Path find() {
		return Tools.locate("h2load").orElse(null);
	}

	/**
	 * Load {@code route} on {@code wire} for {@code seconds}.
	 * @param connections connections (h2load's clients)
	 * @param streams concurrent streams per connection
	 * @return what h2load measured
	 */
	Run run(InetSocketAddress address, Wire wire, Route route, int connections, int streams, int seconds) {
		if (this.executable == null) {
			throw new IllegalStateException("h2load is not installed (apt-get install nghttp2-client)");
		}
		if (!wire.http2()) {
			throw new IllegalArgumentException("h2load measures HTTP/2 here, not " + wire);
		}
		List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(this.core),
				this.executable.toString(), "-t1", "-c" + connections, "-m" + streams, "-D", Integer.toString(seconds),
				"--warm-up-time=1"));
		if (route.requestBody().length > 0) {
			throw new IllegalArgumentException("h2load here sends GET only, not " + route.method());
		}
		command.add(wire.scheme() + "://" + address.getHostString() + ":" + address.getPort() + route.path());
		return execute(command, seconds + 30L, "h2load did not finish: requests were still unanswered 30 s after its "
				+ seconds + " s run");
	}

	/**
	 * Run h2load, wherever {@link Tools} finds it and on any core, with {@code arguments} (its options and URI).
	 * @param timeoutSeconds how long it may take before it is stopped and the run fails
	 * @return what it measured
	 * @throws IllegalStateException when it is not installed, does not finish or prints no result
	 */
	public static Run run(List<String> arguments, long timeoutSeconds) {
		Path executable = find();
		if (executable == null) {
			throw new IllegalStateException("h2load is not installed (apt-get install nghttp2-client)");
		}
		List<String> command = new ArrayList<>(List.of(executable.toString()));
		command.addAll(arguments);
		return execute(command, timeoutSeconds, "h2load did not finish within " + timeoutSeconds + " s");
	}

	private static Run execute(List<String> command, long timeoutSeconds, String timeoutMessage) {
		Path output = null;
		try {
			output = Files.createTempFile("khamsin-bench-h2load", ".out");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			// h2load stops its clients when the duration is over, but waits for every request in flight to be
			// answered before it prints: a server that leaves streams unanswered keeps it waiting for ever.
			if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				throw new IllegalStateException(timeoutMessage);
			}
			return parse(Files.readString(output, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run h2load: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			if (output != null) {
				try {
					Files.deleteIfExists(output);
				}
				catch (IOException ex) {
					// a temporary file left behind is harmless
				}
			}
		}
	}

	/**
	 * Read what h2load printed.
	 * @throws IllegalStateException when it printed no rate, with its output
	 */
	static Run parse(String out) {
		Matcher rate = RATE.matcher(out);
		Matcher requests = REQUESTS.matcher(out);
		if (!rate.find() || !requests.find()) {
			throw new IllegalStateException("h2load printed no result: " + out.strip());
		}
		long failed = Long.parseLong(requests.group(4)) + Long.parseLong(requests.group(5))
				+ Long.parseLong(requests.group(6));
		Matcher status = STATUS.matcher(out);
		long non2xx = 0;
		if (status.find()) {
			non2xx = Long.parseLong(status.group(2)) + Long.parseLong(status.group(3)) + Long.parseLong(status.group(4));
		}
		Matcher protocol = PROTOCOL.matcher(out);
		Matcher data = DATA.matcher(out);
		return new Run(Double.parseDouble(rate.group(1)), Long.parseLong(requests.group(3)), failed, non2xx,
				protocol.find() ? protocol.group(1) : "", data.find() ? Long.parseLong(data.group(1)) : -1);
	}

	/**
	 * One h2load run.
	 *
	 * @param rate requests per second over the measured duration
	 * @param succeeded requests answered
	 * @param failed requests failed, errored or timed out
	 * @param non2xx answers of another status than 2xx
	 * @param protocol the application protocol h2load says it spoke ({@code h2c} or {@code h2})
	 * @param dataBytes response body bytes received (h2load's {@code data} traffic), {@code -1} when it printed none
	 */
	public record Run(double rate, long succeeded, long failed, long non2xx, String protocol, long dataBytes) {

		/** @return what went wrong, empty for nothing */
		public String errors() {
			List<String> errors = new ArrayList<>();
			if (this.failed > 0) {
				errors.add(this.failed + " requests failed");
			}
			if (this.non2xx > 0) {
				errors.add(this.non2xx + " answers not 2xx");
			}
			if (!this.protocol.startsWith("h2")) {
				errors.add("spoke " + (this.protocol.isEmpty() ? "no HTTP/2" : this.protocol) + ", not HTTP/2");
			}
			return String.join("; ", errors);
		}

	}

}
