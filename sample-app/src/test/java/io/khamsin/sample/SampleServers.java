package io.khamsin.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

/**
 * Starts the sample app once per container for the whole test run (two Boot start-ups instead of one per test)
 * and closes it when the JVM exits, through the shutdown hook that Spring registers. A start that failed is
 * remembered, so the tests of that container fail fast with its cause.
 */
final class SampleServers {

	private static final Path filesRoot = createFilesRoot();

	private static final Map<Container, Started> running = new ConcurrentHashMap<>();

	private SampleServers() {
	}

	static SampleServer running(Container container) {
		return running.computeIfAbsent(container, SampleServers::start).server();
	}

	/**
	 * The directory that both apps serve under {@code /files/**}; tests write the files they download.
	 * @return the {@code sample.files.dir} of the running apps
	 */
	static Path filesDir() {
		return filesRoot.resolve("files");
	}

	private static Started start(Container container) {
		try {
			// Arguments, unlike default properties, take precedence over application.yml.
			ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class,
					TestRoutes.class)
				.run("--server.port=0", "--server.address=127.0.0.1",
						"--khamsin.enabled=" + container.khamsinEnabled(), "--sample.files.dir=" + filesDir(),
						// A page that waits 50 ms makes out-of-order pipelined answers likely, were they possible.
						"--sample.page.render-mode=delay", "--sample.page.render-cost=50ms",
						"--spring.main.banner-mode=off");
			WebServer webServer = ((WebServerApplicationContext) context).getWebServer();
			if (!container.runs(webServer.getClass())) {
				context.close();
				throw new IllegalStateException("Expected the sample app to run on " + container + " but "
						+ webServer.getClass().getName() + " serves it (is khamsin-spring-boot-starter, with its "
						+ "auto-configuration, on the test classpath?)");
			}
			return new Started(new SampleServer(container, context, webServer.getPort()), null);
		}
		catch (RuntimeException ex) {
			return new Started(null, ex);
		}
	}

	private static Path createFilesRoot() {
		try {
			Path root = Files.createTempDirectory("khamsin-sample-");
			Files.createDirectories(root.resolve("files"));
			Runtime.getRuntime().addShutdownHook(new Thread(() -> FileSystemUtils.deleteRecursively(root.toFile())));
			return root;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Started(SampleServer server, RuntimeException failure) {

		@Override
		public SampleServer server() {
			if (this.failure != null) {
				throw new IllegalStateException("The sample app did not start", this.failure);
			}
			return this.server;
		}

	}

}
