package io.khamsin.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample app as a user runs it, {@code java -jar sample-app/target/khamsin-sample-app-*.jar}: it
 * starts on khamsin, says so with the {@code khamsin started on port} line, and answers {@code /plaintext}. Run by
 * failsafe after {@code package}, with the jar's path in {@code sample.jar}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SampleJarTests {

	private static final Pattern KHAMSIN_STARTED = Pattern.compile("khamsin started on port (\\d+)");

	private static final Pattern NETTY_STARTED = Pattern.compile("Netty started on port (\\d+)");

	@TempDir
	Path workingDir;

	@Test
	void packagedAppStartsOnKhamsinAndAnswersPlaintext() throws Exception {
		List<String> log = new CopyOnWriteArrayList<>();
		Process app = start(log);
		try {
			int port = awaitPort(app, log, KHAMSIN_STARTED);
			assertThat(plaintext(port)).isEqualTo("Hello, World!");
		}
		finally {
			stop(app);
		}
	}

	@Test
	void packagedAppRunsOnReactorNettyWhenKhamsinIsDisabled() throws Exception {
		List<String> log = new CopyOnWriteArrayList<>();
		Process app = start(log, "--khamsin.enabled=false");
		try {
			int port = awaitPort(app, log, NETTY_STARTED);
			assertThat(plaintext(port)).isEqualTo("Hello, World!");
			assertThat(log).noneMatch((line) -> line.contains("khamsin started on port"));
		}
		finally {
			stop(app);
		}
	}

	private Process start(List<String> log, String... arguments) throws IOException {
		Path jar = Paths.get(System.getProperty("sample.jar", "target/khamsin-sample-app-0.1.0-SNAPSHOT.jar"))
			.toAbsolutePath();
		assertThat(jar).as("the packaged sample app (run 'mvn package' first)").isRegularFile();
		List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
			.toString(), "-jar", jar.toString(), "--server.port=0"));
		command.addAll(List.of(arguments));
		Files.createDirectories(this.workingDir.resolve("files"));
		Process app = new ProcessBuilder(command).directory(this.workingDir.toFile())
			.redirectErrorStream(true)
			.start();
		Thread reader = new Thread(() -> collect(app, log), "sample-jar-log");
		reader.setDaemon(true);
		reader.start();
		return app;
	}

	/**
	 * Waits for the line in which a container says it started, and fails at once when it is the other one's.
	 */
	private static int awaitPort(Process app, List<String> log, Pattern expected) {
		String[] startedLine = new String[1];
		await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
			assertThat(app.isAlive()).as("the app is running; its log:%n%s", String.join("\n", log)).isTrue();
			startedLine[0] = log.stream()
				.filter((line) -> KHAMSIN_STARTED.matcher(line).find() || NETTY_STARTED.matcher(line).find())
				.findFirst()
				.orElseThrow(() -> new AssertionError("No container has started yet; the log so far:\n"
						+ String.join("\n", log)));
		});
		Matcher matcher = expected.matcher(startedLine[0]);
		assertThat(matcher.find()).as("'%s' in the line%n%s%n(a line 'Netty started' means the khamsin starter is "
				+ "missing from the jar or its auto-configuration stepped aside)", expected, startedLine[0])
			.isTrue();
		return Integer.parseInt(matcher.group(1));
	}

	private static String plaintext(int port) throws Exception {
		HttpResponse<String> response = HttpClients.http1()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static void collect(Process app, List<String> log) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				log.add(line);
			}
		}
		catch (IOException ex) {
			log.add("(log ended: " + ex + ")");
		}
	}

	private static void stop(Process app) throws InterruptedException {
		app.destroy();
		if (!app.waitFor(20, TimeUnit.SECONDS)) {
			app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
