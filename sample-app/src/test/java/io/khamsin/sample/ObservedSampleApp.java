package io.khamsin.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * A sample app on khamsin of its own, so that the figures a test reads count only the requests it sent: pages
 * wait 20 ms ({@code sample.page.render-mode=delay}) and two reactors serve.
 */
final class ObservedSampleApp implements AutoCloseable {

	static final Duration PAGE_DELAY = Duration.ofMillis(20);

	private final ConfigurableApplicationContext context;

	private final int port;

	private final HttpClient client = HttpClients.http1();

	ObservedSampleApp() {
		this.context = new SpringApplicationBuilder(SampleApplication.class, OwnReactorResources.class).run(
				"--server.port=0", "--server.address=127.0.0.1", "--khamsin.reactors=2", "--sample.page.render-mode=delay",
				"--sample.page.render-cost=" + PAGE_DELAY.toMillis() + "ms", "--spring.main.banner-mode=off");
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	int port() {
		return this.port;
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	HttpResponse<String> get(String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The value of the one sample of a Prometheus scrape whose name and labels match.
	 * @param scrape the scrape
	 * @param name the sample's name
	 * @param labels a regular expression the labels must contain, e.g. {@code route="/plaintext"}, or empty
	 * for a sample with or without labels
	 * @return the value, or {@code -1} if no sample matches
	 */
	static double sample(String scrape, String name, String labels) {
		String labelled = labels.isEmpty() ? "(?:\\{[^}]*})?" : "\\{[^}]*" + labels + "[^}]*}";
		Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + labelled + " (\\S+)").matcher(scrape);
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : -1;
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * Reactor Netty resources of this app's own: Boot's default are the global ones, and closing this app would
	 * then shut down the event loops of the Reactor Netty sample app that other tests share.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OwnReactorResources {

		@Bean
		ReactorResourceFactory reactorResourceFactory() {
			ReactorResourceFactory factory = new ReactorResourceFactory();
			factory.setUseGlobalResources(false);
			return factory;
		}

	}

}
