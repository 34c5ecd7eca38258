package io.khamsin.benchmark.leak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sends the request shapes that leave a body or a stream half-handled to the sample app, each many times, then has
 * the server's JVM collect its garbage a few times (with {@code jcmd GC.run}) and sends ordinary requests so that
 * Netty's leak detector, at PARANOID, reports what was collected unreleased; counts the {@code LEAK:} reports the
 * server's log gained per shape. Run it as
 * {@code LeakProbe tcp|h3 <port> <server pid> <server log> <count> [<server's QUIC idle timeout, seconds>]}: {@code tcp} sends
 * {@link TcpShapes} (HTTP/1.1, WebSocket, h2c with prior knowledge) to a cleartext server, {@code h3} sends
 * {@link Http3Shapes} to a server's HTTP/3 listener. It prints one line per shape,
 * {@code shape<TAB>times sent<TAB>leak reports<TAB>failed sends<TAB>why the first failed}, and exits 1 when the server no longer answers at the
 * end. {@code benchmark/leakprobe} runs it against khamsin and Reactor Netty and writes the table.
 */
public final class LeakProbe {

	private final long pid;

	private final Path log;

	private final Shapes shapes;

	private LeakProbe(long pid, Path log, Shapes shapes) {
		this.pid = pid;
		this.log = log;
		this.shapes = shapes;
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[1]);
		int count = Integer.parseInt(args[4]);
		try (Shapes shapes = switch (args[0]) {
			case "tcp" -> new TcpShapes(port);
			case "h3" -> new Http3Shapes(port, Duration.ofSeconds(Long.parseLong(args[5])));
			default -> throw new IllegalArgumentException("the wire is tcp or h3, not " + args[0]);
		}) {
			if (!shapes.answers(120)) {
				System.err.println("the server on port " + port + " does not answer " + args[0]);
				System.exit(1);
			}
			LeakProbe probe = new LeakProbe(Long.parseLong(args[2]), Path.of(args[3]), shapes);
			probe.run(count);
			if (!shapes.answers(30)) {
				System.err.println("the server on port " + port + " no longer answers " + args[0]);
				System.exit(1);
			}
		}
		System.exit(0);
	}

	private void run(int count) throws IOException, InterruptedException {
		settle();
		long before = leakReports();
		for (Map.Entry<String, Shapes.Shape> shape : this.shapes.shapes().entrySet()) {
			List<String> failures = new ArrayList<>();
			if (shape.getValue() instanceof Shapes.Batched batched) {
				batched.sendAll(count, failures);
			}
			else {
				for (int i = 0; i < count; i++) {
					try {
						shape.getValue().send(i);
					}
					catch (IOException ex) {
						failures.add(ex.toString());
					}
				}
			}
			settle();
			long after = leakReports();
			String firstFailure = failures.isEmpty() ? "" : failures.get(0).replaceAll("\\s+", " ");
			System.out.println(shape.getKey() + "\t" + count + "\t" + (after - before) + "\t" + failures.size() + "\t"
					+ firstFailure);
			before = after;
		}
	}

	/** Collect the server's garbage, then allocate on it, so that the detector reports what it finds; three times. */
	private void settle() throws IOException, InterruptedException {
		for (int round = 0; round < 3; round++) {
			Process gc = new ProcessBuilder("jcmd", Long.toString(this.pid), "GC.run").redirectErrorStream(true).start();
			gc.getInputStream().readAllBytes();
			gc.waitFor(60, TimeUnit.SECONDS);
			this.shapes.ordinaryTraffic(100);
			Thread.sleep(500);
		}
	}

	private long leakReports() throws IOException {
		try (var lines = Files.lines(this.log, StandardCharsets.ISO_8859_1)) {
			return lines.filter((line) -> line.contains("LEAK:")).count();
		}
	}

}
