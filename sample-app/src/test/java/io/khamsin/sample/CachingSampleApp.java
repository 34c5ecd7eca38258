package io.khamsin.sample;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.khamsin.container.test.CommandLine;

/**
 * A sample app on khamsin of its own, with the page cache its {@code application.yml} enables, for tests that read
 * the cache's figures: curl speaks to it with the {@code Host} a fleet behind one name would see, so that instances
 * share their pages' keys.
 */
final class CachingSampleApp implements AutoCloseable {

	static final String HOST = "shop.example";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final ConfigurableApplicationContext context;

	private final int port;

	CachingSampleApp(String... args) {
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--khamsin.reactors=2", "--sample.page.render-cost=1ms", "--spring.main.banner-mode=off"));
		all.addAll(List.of(args));
		this.context = new SpringApplicationBuilder(SampleApplication.class, ObservedSampleApp.OwnReactorResources.class)
			.run(all.toArray(new String[0]));
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/**
	 * curl's answer to a request, head and body.
	 * @param args curl's arguments before the URL (a method, headers)
	 */
	CommandLine.Result curl(String path, String... args) {
		CommandLine.assumeInstalled("curl", "curl");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "-i", "-H", "Host: " + HOST));
		command.addAll(List.of(args));
		command.add(uri(path).toString());
		CommandLine.Result result = CommandLine.run(null, WAIT, command);
		if (result.exitCode() != 0) {
			throw new AssertionError("curl failed: " + result);
		}
		return result;
	}

	/** @return the status of curl's answer */
	static int status(CommandLine.Result result) {
		Matcher status = Pattern.compile("^HTTP/\\S+ (\\d{3})").matcher(result.output());
		if (!status.find()) {
			throw new AssertionError("no status line in " + result.output());
		}
		return Integer.parseInt(status.group(1));
	}

	/** @return whether curl's answer came from the page cache (its {@code Age}) */
	static boolean fromCache(CommandLine.Result result) {
		return Pattern.compile("(?im)^age: \\d+\\r?$").matcher(result.output()).find();
	}

	/** @return the Prometheus scrape */
	String scrape() {
		return curl("/actuator/prometheus").output();
	}

	/** @return the renders of {@code /page/{id}}: WebFlux counts them, and only them, since hits never enter it */
	double renders() {
		Matcher matcher = Pattern.compile("(?m)^http_server_requests_seconds_count\\{[^}]*uri=\"/page/\\{id}\"[^}]*} (\\S+)")
			.matcher(scrape());
		double renders = 0;
		while (matcher.find()) {
			renders += Double.parseDouble(matcher.group(1));
		}
		return renders;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
