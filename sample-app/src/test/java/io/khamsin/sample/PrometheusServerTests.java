package io.khamsin.sample;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus server (Debian's {@code prometheus}, which {@code .ci/run} installs) scrapes the sample app on
 * khamsin every second: the target is up, the PromQL of a p99 latency panel answers a value, and every query of
 * the Grafana dashboard in {@code docs/grafana} is valid PromQL.
 */
@Timeout(240)
class PrometheusServerTests {

	private static final Duration WAIT = Duration.ofSeconds(120);

	static final Path DASHBOARD = Path.of("..", "docs", "grafana", "khamsin-dashboard.json");

	private static final String P99 = "histogram_quantile(0.99, rate(khamsin_requests_seconds_bucket[1m]))";

	private final HttpClient client = HttpClients.http1();

	private final JsonMapper json = JsonMapper.builder().build();

	private final AtomicBoolean loading = new AtomicBoolean(true);

	@TempDir
	Path dir;

	private ObservedSampleApp app;

	private Process prometheus;

	private Thread load;

	@AfterEach
	void stop() throws Exception {
		this.loading.set(false);
		if (this.load != null) {
			this.load.join(10_000);
		}
		if (this.prometheus != null) {
			this.prometheus.destroy();
			if (!this.prometheus.waitFor(20, TimeUnit.SECONDS)) {
				this.prometheus.destroyForcibly();
			}
		}
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void prometheusScrapesKhamsinsMetersAndAnswersTheirP99() throws Exception {
		String binary = prometheusBinary();
		assumeThat(binary).as("Prometheus is not installed (apt-get install prometheus, as .ci/run does)").isNotNull();
		this.app = new ObservedSampleApp();
		startLoad();
		int port = freePort();
		this.prometheus = startPrometheus(binary, port);
		URI api = URI.create("http://127.0.0.1:" + port + "/api/v1/");
		await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().untilAsserted(() -> {
			assertThat(this.prometheus.isAlive()).as("prometheus is running (see %s)", this.dir.resolve("prometheus.log"))
				.isTrue();
			JsonNode targets = getJson(api.resolve("targets"));
			JsonNode target = targets.path("data").path("activeTargets").get(0);
			assertThat(target.path("health").asString()).as("target %s", target).isEqualTo("up");
		});
		await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() -> {
			JsonNode result = getJson(api.resolve("query?query=" + URLEncoder.encode(P99, StandardCharsets.UTF_8)))
				.path("data")
				.path("result");
			double p99 = Double.NaN;
			for (JsonNode series : result) {
				if (series.path("metric").path("route").asString().equals("/plaintext")) {
					p99 = Double.parseDouble(series.path("value").get(1).asString());
				}
			}
			assertThat(p99).as("p99 of /plaintext in seconds, from %s", result).isPositive().isLessThan(30);
		});
		for (String expr : dashboardQueries()) {
			JsonNode answer = getJson(api.resolve("query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)));
			assertThat(answer.path("status").asString()).as("the Grafana dashboard's query %s", expr)
				.isEqualTo("success");
		}
	}

	/**
	 * The queries of the Grafana dashboard in {@code docs/grafana}, with its variables set as Grafana would.
	 */
	private List<String> dashboardQueries() throws IOException {
		JsonNode dashboard = this.json.readTree(Files.readString(DASHBOARD));
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : dashboard.path("panels")) {
			for (JsonNode target : panel.path("targets")) {
				queries.add(target.path("expr").asString()
					.replace("$__rate_interval", "1m")
					.replace("$instance", ".*")
					.replace("$route", ".*"));
			}
		}
		assertThat(queries).hasSizeGreaterThan(10);
		return queries;
	}

	private Process startPrometheus(String binary, int port) throws IOException {
		Path config = Files.writeString(this.dir.resolve("prometheus.yml"), """
				global:
				  scrape_interval: 1s
				  evaluation_interval: 1s
				scrape_configs:
				  - job_name: khamsin-sample
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(this.app.port()));
		File log = this.dir.resolve("prometheus.log").toFile();
		return new ProcessBuilder(binary, "--config.file=" + config, "--storage.tsdb.path=" + this.dir.resolve("data"),
				"--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
			.redirectErrorStream(true)
			.redirectOutput(log)
			.start();
	}

	private void startLoad() {
		this.load = new Thread(() -> {
			while (this.loading.get()) {
				try {
					this.app.get("/plaintext");
					Thread.sleep(10);
				}
				catch (Exception ex) {
					return;
				}
			}
		}, "prometheus-test-load");
		this.load.start();
	}

	private JsonNode getJson(URI uri) throws Exception {
		HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("%s: %s", uri, response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private static String prometheusBinary() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, "prometheus");
			if (Files.isExecutable(candidate)) {
				return candidate.toString();
			}
		}
		System.out.println("PrometheusServerTests skipped: no 'prometheus' on the PATH; install it with "
				+ "'apt-get install prometheus' (.ci/run does)");
		return null;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
