package io.khamsin.benchmark.scenario;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The progress display: one line per step, naming the scenario, target, round and the rate being tried, with the
 * time since the start; the same lines go to {@code run.log} in the results.
 */
public final class Progress implements AutoCloseable {

	private final PrintStream out;

	private final Writer log;

	private final long start = System.nanoTime();

	private String scenario = "-";

	public Progress(PrintStream out, Path logFile) {
		this.out = out;
		try {
			Files.createDirectories(logFile.getParent());
			this.log = Files.newBufferedWriter(logFile);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public void scenario(String name) {
		this.scenario = name;
		line("== scenario " + name);
	}

	/** A step of a target in a round ({@code round 0}: before the rounds). */
	public void step(String target, int round, int rounds, String message) {
		String where = (round > 0) ? "round " + round + "/" + rounds : "setup";
		line(String.format("[%s] %-9s %-13s %s", this.scenario, where, target, message));
	}

	public void line(String message) {
		Duration elapsed = Duration.ofNanos(System.nanoTime() - this.start);
		String text = String.format("%3d:%02d %s", elapsed.toMinutes(), elapsed.toSecondsPart(), message);
		this.out.println(text);
		this.out.flush();
		try {
			this.log.write(text + "\n");
			this.log.flush();
		}
		catch (IOException ex) {
			// the display matters more than the log
		}
	}

	@Override
	public void close() throws IOException {
		this.log.close();
	}

}
