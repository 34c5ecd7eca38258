package io.khamsin.sample;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard in {@code docs/grafana} is importable as is and charts meters that khamsin publishes.
 */
@Timeout(120)
class GrafanaDashboardTests {

	private static final Pattern METRIC = Pattern.compile("\\b(khamsin_[a-z_]+)\\b");

	private static ObservedSampleApp app;

	@BeforeAll
	static void start() {
		app = new ObservedSampleApp();
	}

	@AfterAll
	static void stop() {
		app.close();
	}

	@Test
	void everyMetricTheDashboardChartsIsInTheScrape() throws Exception {
		JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(PrometheusServerTests.DASHBOARD));
		assertThat(dashboard.path("__inputs").get(0).path("pluginId").asString()).isEqualTo("prometheus");
		assertThat(dashboard.path("uid").asString()).isEqualTo("khamsin-overview");
		Set<String> charted = new TreeSet<>();
		for (JsonNode panel : dashboard.path("panels")) {
			assertThat(panel.path("datasource").path("uid").asString()).isEqualTo("${DS_PROMETHEUS}");
			for (JsonNode target : panel.path("targets")) {
				Matcher matcher = METRIC.matcher(target.path("expr").asString());
				while (matcher.find()) {
					charted.add(matcher.group(1));
				}
			}
		}
		assertThat(charted).contains("khamsin_requests_seconds_bucket", "khamsin_guard_events_total");
		app.get("/plaintext");
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			String scrape = app.get("/actuator/prometheus").body();
			for (String metric : charted) {
				assertThat(scrape).as("the scrape's %s", metric).containsPattern("(?m)^" + metric + "[{ ]");
			}
		});
	}

}
