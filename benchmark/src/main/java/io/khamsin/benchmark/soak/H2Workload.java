package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.khamsin.benchmark.scenario.H2load;

/**
 * HTTP/2 over TLS (ALPN {@code h2}) through h2load at a moderate rate. Keep-alive: {@code clients} connections, each
 * following a timing script (one request every {@code interval}, h2load's {@code --timing-script-file}), renewed
 * every {@link #KEEP_ALIVE_RUN}. Churn: {@code perSecond} new connections a second, each carrying one request and
 * closed after it. A failed, errored or timed-out request, an answer other than 2xx, another protocol than h2, or
 * response bodies that do not add up to the expected length per request are errors.
 */
final class H2Workload implements Workload {

	/** How long one keep-alive h2load run lasts: its connections are open that long. */
	static final Duration KEEP_ALIVE_RUN = Duration.ofSeconds(5);

	private final String name;

	private final String description;

	private final InetSocketAddress address;

	private final String path;

	private final Path upload;

	private final long expectedBodyLength;

	private final int clients;

	private final Duration interval;

	private final int perSecond;

	private final Path workDir;

	private H2Workload(String name, String description, InetSocketAddress address, String path, Path upload,
			long expectedBodyLength, int clients, Duration interval, int perSecond, Path workDir) {
		this.name = name;
		this.description = description;
		this.address = address;
		this.path = path;
		this.upload = upload;
		this.expectedBodyLength = expectedBodyLength;
		this.clients = clients;
		this.interval = interval;
		this.perSecond = perSecond;
		this.workDir = workDir;
	}

	/**
	 * Keep-alive connections, each sending one request every {@code interval}.
	 * @param upload a file to POST as every request's body, or {@code null} for GET
	 */
	static H2Workload keepAlive(String name, String description, InetSocketAddress address, String path, Path upload,
			long expectedBodyLength, int clients, Duration interval, Path workDir) {
		return new H2Workload(name, description, address, path, upload, expectedBodyLength, clients, interval, 0,
				workDir);
	}

	/** {@code perSecond} new connections a second, one GET each. */
	static H2Workload churn(String name, String description, InetSocketAddress address, String path,
			long expectedBodyLength, int perSecond, Path workDir) {
		return new H2Workload(name, description, address, path, null, expectedBodyLength, 0, null, perSecond,
				workDir);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public Outcome run(Duration duration) {
		return (this.perSecond > 0) ? churn(duration) : keepAlive(duration);
	}

	/**
	 * Keep-alive: h2load runs of {@link #KEEP_ALIVE_RUN} each, one after the other until the duration is over, each
	 * client on one connection for its run and sending at its timing script's offsets. Runs of a few seconds, not one
	 * for the whole duration, because h2load sends a script's request only after the one before it is answered: a
	 * loaded machine stretches a run, and a short one ends near the soak's end all the same.
	 */
	private Outcome keepAlive(Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		Outcome total = new Outcome(0, 0, null);
		for (long left = duration.toNanos(); left > this.interval.toNanos(); left = deadline - System.nanoTime()) {
			int perClient = (int) (Math.min(left, KEEP_ALIVE_RUN.toNanos()) / this.interval.toNanos());
			List<String> arguments = new ArrayList<>(List.of("-t1", "-m1", "-c" + this.clients, "-n" + perClient,
					"--timing-script-file=" + timingScript(uri(), perClient)));
			if (this.upload != null) {
				arguments.add("--data=" + this.upload);
			}
			arguments.add(uri());
			total = total.plus(check(arguments, (long) perClient * this.clients, 120));
		}
		return total;
	}

	/**
	 * Churn: an h2load run a second of {@code perSecond} connections with one request each, until the duration is
	 * over. h2load's own {@code --rate} mode keeps every connection it made open until it exits.
	 */
	private Outcome churn(Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		Outcome total = new Outcome(0, 0, null);
		for (long next = System.nanoTime(); next < deadline; next += 1_000_000_000L) {
			long wait = next - System.nanoTime();
			if (wait > 0) {
				try {
					Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
			}
			else {
				next = System.nanoTime();
			}
			total = total.plus(check(List.of("-t1", "-m1", "-c" + this.perSecond, "-n" + this.perSecond, uri()),
					this.perSecond, 60));
		}
		return total;
	}

	private String uri() {
		return "https://" + this.address.getHostString() + ":" + this.address.getPort() + this.path;
	}

	private Outcome check(List<String> arguments, long requests, long timeoutSeconds) {
		H2load.Run run;
		try {
			run = H2load.run(arguments, timeoutSeconds);
		}
		catch (IllegalStateException ex) {
			return new Outcome(0, requests, ex.getMessage());
		}
		List<String> problems = new ArrayList<>();
		if (!run.errors().isEmpty()) {
			problems.add(run.errors());
		}
		long unsent = Math.max(0, requests - run.succeeded() - run.failed() - run.non2xx());
		if (unsent > 0) {
			problems.add(unsent + " requests not sent");
		}
		long expectedData = run.succeeded() * this.expectedBodyLength;
		boolean wrongBodies = this.expectedBodyLength >= 0 && run.non2xx() == 0 && run.dataBytes() != expectedData;
		if (wrongBodies) {
			problems.add("response bodies of " + run.dataBytes() + " bytes, not " + expectedData);
		}
		long errors = run.failed() + run.non2xx() + unsent + (wrongBodies ? 1 : 0)
				+ (run.protocol().startsWith("h2") ? 0 : 1);
		return new Outcome(run.succeeded(), errors, problems.isEmpty() ? null : String.join("; ", problems));
	}

	/** One line per request a client sends: its offset from the client's start in milliseconds, a tab, the URI. */
	private Path timingScript(String uri, int requests) {
		// h2load reads the script's URIs, each client from the first line on, and sends each at its offset.
		StringBuilder script = new StringBuilder();
		for (int i = 0; i < requests; i++) {
			script.append(i * this.interval.toMillis()).append('\t').append(uri).append('\n');
		}
		try {
			Files.createDirectories(this.workDir);
			return Files.writeString(this.workDir.resolve(this.name + "-timing.txt"), script);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
