package io.khamsin.sample;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real browser on the sample app's HTTP/3: Debian's {@code chromium} (which {@code .ci/run} installs), headless,
 * with QUIC forced on for the app's origin, loads a product page and its stylesheet, and khamsin's figures count
 * both under {@code protocol="h3"} and the page under no other protocol.
 */
@Timeout(180)
class ChromiumOverHttp3Tests {

	private static final Duration BROWSER_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration FIGURES_WAIT = Duration.ofSeconds(30);

	private static final String PAGES = "/page/{id}";

	private static final String FILES = "/files/**";

	private static TlsSampleApp app;

	@TempDir
	Path browserDir;

	@BeforeAll
	static void start() throws Exception {
		HeadlessChromium.assumeInstalled();
		app = TlsSampleApp.withHttp3();
		Files.writeString(app.filesDir().resolve("site.css"), "body { font-family: sans-serif; }\n");
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	@Test
	void chromiumLoadsAProductPageAndItsStylesheetOverHttp3() {
		double pagesOverH3 = requests("h3", PAGES);
		double stylesheetsOverH3 = requests("h3", FILES);
		double pagesOverAnyProtocol = requests(null, PAGES);
		// 127.0.0.1, not localhost: Chromium resolves localhost to ::1 alone for QUIC, where the app does not listen.
		URI page = URI.create("https://127.0.0.1:" + app.port() + "/page/quic-1");
		String dom = new HeadlessChromium(this.browserDir).dumpDomOverHttp3(page, app.web().certificate(),
				BROWSER_TIMEOUT);
		assertThat(dom).contains("<title>Product quic-1</title>", "<h1>Product quic-1</h1>", "Specification 24",
				"rendered by khamsin-sample (");
		await().atMost(FIGURES_WAIT).untilAsserted(() -> {
			assertThat(requests("h3", PAGES)).as(figures()).isGreaterThanOrEqualTo(pagesOverH3 + 1);
			assertThat(requests("h3", FILES)).as(figures()).isGreaterThanOrEqualTo(stylesheetsOverH3 + 1);
		});
		assertThat(requests(null, PAGES) - pagesOverAnyProtocol).as(figures())
			.isEqualTo(requests("h3", PAGES) - pagesOverH3);
	}

	/**
	 * @param protocol the protocol's tag, or {@code null} for all
	 * @param route the route's tag
	 * @return how many requests khamsin has recorded
	 */
	private static double requests(String protocol, String route) {
		return registry().find("khamsin.requests")
			.tag("route", route)
			.timers()
			.stream()
			.filter((timer) -> protocol == null || protocol.equals(timer.getId().getTag("protocol")))
			.mapToDouble(Timer::count)
			.sum();
	}

	private static String figures() {
		return registry().find("khamsin.requests")
			.timers()
			.stream()
			.map((timer) -> timer.getId().getTags() + " " + timer.count())
			.collect(Collectors.joining("\n", "khamsin.requests:\n", ""));
	}

	private static MeterRegistry registry() {
		return app.bean(MeterRegistry.class);
	}

}
