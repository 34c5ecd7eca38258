package io.khamsin.container.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs a real client (curl, openssl) as a user would, with a deadline, and gives its exit code and output.
 * A test whose tool is not installed is skipped with a line that says which Debian package brings it.
 */
public final class CommandLine {

	private CommandLine() {
	}

	/**
	 * Skip the calling test unless a tool is on the PATH.
	 * @param tool the command
	 * @param debianPackage the package that installs it
	 */
	public static void assumeInstalled(String tool, String debianPackage) {
		boolean found = false;
		for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
			if (Files.isExecutable(Path.of(dir, tool))) {
				found = true;
				break;
			}
		}
		if (!found) {
			System.out.println("Skipped: " + tool + " is not installed (apt-get install " + debianPackage + ")");
		}
		Assumptions.assumeTrue(found, tool + " is not installed (apt-get install " + debianPackage + ")");
	}

	/**
	 * Run a command, feed it standard input, and wait for it to end.
	 * @param stdin what to write to its standard input, then close it
	 * @param timeout how long it may run before it is killed and the test fails
	 * @param command the command and its arguments
	 * @return the result
	 */
	public static Result run(String stdin, Duration timeout, String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
			try (OutputStream in = process.getOutputStream()) {
				if (stdin != null) {
					in.write(stdin.getBytes(StandardCharsets.ISO_8859_1));
				}
			}
			catch (IOException ex) {
				// The tool exited before it read its input; its output says why.
			}
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new AssertionError(String.join(" ", command) + " did not end within " + timeout + ": "
						+ output.getNow(""));
			}
			return new Result(process.exitValue(), output.get(5, TimeUnit.SECONDS), List.of(command));
		}
		catch (IOException | InterruptedException | java.util.concurrent.ExecutionException
				| java.util.concurrent.TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Like {@link #run(String, Duration, String...)} with a list.
	 * @param stdin standard input
	 * @param timeout the deadline
	 * @param command the command
	 * @return the result
	 */
	public static Result run(String stdin, Duration timeout, List<String> command) {
		return run(stdin, timeout, command.toArray(new String[0]));
	}

	private static String readAll(InputStream in) {
		try {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			in.transferTo(out);
			return out.toString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * What a command did.
	 *
	 * @param exitCode its exit code
	 * @param output its standard output and error, interleaved
	 * @param command what ran
	 */
	public record Result(int exitCode, String output, List<String> command) {

		/**
		 * @param prefix the start of a line, such as {@code "    Protocol  :"}
		 * @return the rest of the first line that starts with it, trimmed, or {@code null}
		 */
		public String line(String prefix) {
			for (String line : this.output.split("\n")) {
				if (line.trim().startsWith(prefix)) {
					return line.trim().substring(prefix.length()).trim();
				}
			}
			return null;
		}

		/**
		 * @param regex a pattern with one group
		 * @return the group of its first match in the output, or {@code null}
		 */
		public String find(String regex) {
			java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(regex).matcher(this.output);
			return matcher.find() ? matcher.group(1) : null;
		}

		@Override
		public String toString() {
			return String.join(" ", new ArrayList<>(this.command)) + " -> " + this.exitCode + "\n" + this.output;
		}

	}

}
