package io.khamsin.actuate.metrics;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.actuate.metrics.KhamsinMeterBinder.TimerSettings;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.test.H3Client;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.tls.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The meters show what clients did, in Micrometer and in Prometheus' text format.
 */
@Timeout(60)
class KhamsinMeterBinderTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final TimerSettings TIMER = new TimerSettings(true, List.of(Duration.ofMillis(100)),
			Duration.ofNanos(50_000), Duration.ofSeconds(30));

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private KhamsinServer server;

	private KhamsinMeterBinder binder;

	private void start(MetricsConfig config) {
		start(config, KhamsinServerConfig.builder().reactors(2).maxInitialLineLength(100).build());
	}

	private void start(MetricsConfig config, KhamsinServerConfig serverConfig) {
		KhamsinMetrics metrics = KhamsinMetrics.create(config);
		this.server = KhamsinServer.create(serverConfig, new TestRoutes(Path.of("missing")).handler(), metrics);
		this.server.start();
		this.binder = new KhamsinMeterBinder(metrics, TIMER, Duration.ofMillis(100));
		this.binder.bindTo(this.registry);
	}

	@AfterEach
	void stop() {
		if (this.binder != null) {
			this.binder.close();
		}
		if (this.server != null) {
			this.server.stop();
		}
		this.registry.close();
	}

	@Test
	void requestsAreCountedInTheTimerOfTheirTags() throws Exception {
		start(MetricsConfig.defaults());
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < 25; i++) {
			HttpResponse<String> response = client.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + this.server.port() + "/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
		}
		await().atMost(WAIT).untilAsserted(() -> {
			Timer timer = this.registry.find("khamsin.requests")
				.tags("protocol", "h1", "status", "2xx", "path", "handler")
				.timer();
			assertThat(timer).isNotNull();
			assertThat(timer.count()).isEqualTo(25);
			assertThat(timer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
		});
		String scrape = this.registry.scrape();
		assertThat(scrape).contains(
				"khamsin_requests_seconds_count{path=\"handler\",protocol=\"h1\",route=\"other\",status=\"2xx\"} 25");
		assertThat(scrape).contains("le=\"0.1\"");
		assertThat(buckets(scrape)).hasSizeGreaterThan(10).isSorted().endsWith(25.0);
		assertThat(scrape).contains("khamsin_bytes_received_bytes_total", "khamsin_bytes_sent_bytes_total",
				"khamsin_connections_active", "khamsin_requests_active", "khamsin_connections_accepted_total");
	}

	@Test
	void guardEventsAreCountedByGuard() throws Exception {
		start(MetricsConfig.defaults());
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /" + "a".repeat(200) + " HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(414);
		}
		assertThat(this.registry.get("khamsin.guard.events").tag("guard", Guard.MAX_INITIAL_LINE_LENGTH.tag())
			.functionCounter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("khamsin.guard.events").tag("guard", Guard.IDLE_TIMEOUT.tag())
			.functionCounter()
			.count()).isZero();
	}

	@Test
	void fileBodiesAreCountedByTheWayTheyLeftAndWhy(@TempDir Path dir) throws Exception {
		Path file = Files.writeString(dir.resolve("file.txt"), "x".repeat(100_000));
		KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				new TestRoutes(file).handler(), metrics);
		this.server.start();
		this.binder = new KhamsinMeterBinder(metrics, TIMER, Duration.ofMillis(100));
		this.binder.bindTo(this.registry);
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.server.port() + "/file")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.body()).hasSize(100_000);
		assertThat(this.registry.get("khamsin.egress.file.bodies").tags("path", "sendfile", "reason", "plain-connection")
			.functionCounter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("khamsin.egress.file.bodies").tags("path", "userspace", "reason", "tls-in-userspace")
			.functionCounter()
			.count()).isZero();
		assertThat(this.registry.scrape())
			.contains("khamsin_egress_file_bodies_total{path=\"sendfile\",reason=\"plain-connection\"} 1.0");
	}

	@Test
	void tlsHandshakesAreCountedFullOrResumedFailuresByReasonAndSilentConnectionsApart() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TlsConfig tls = TlsConfig.builder(certificates.server("localhost").material("localhost")).build();
		start(MetricsConfig.defaults(), KhamsinServerConfig.builder().reactors(1).tls(tls).build());
		SSLContext client = certificates.clientContext(null);
		for (int i = 0; i < 2; i++) {
			try (TlsClient connection = TlsClient.connect(client, this.server.port(), "localhost", "TLSv1.2")) {
				assertThat(connection.get("/plaintext")).isEqualTo("HTTP/1.1 200 OK\nHello, World!");
			}
		}
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(400);
		}
		new Socket("127.0.0.1", this.server.port()).close();
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(this.registry.get("khamsin.tls.closed.before.hello").functionCounter().count()).isEqualTo(1);
			assertThat(handshakes("full")).isEqualTo(1);
			assertThat(handshakes("resumed")).isEqualTo(1);
			assertThat(this.registry.get("khamsin.tls.handshake.failures").tag("reason", "cleartext")
				.functionCounter()
				.count()).isEqualTo(1);
		});
		assertThat(this.registry.get("khamsin.tls.handshake.failures").tag("reason", "no-shared-cipher")
			.functionCounter()
			.count()).isZero();
		assertThat(this.registry.get("khamsin.tls.handshake.failures").tag("reason", "closed")
			.functionCounter()
			.count()).isZero();
		assertThat(this.registry.scrape()).contains("khamsin_tls_handshakes_total{result=\"resumed\"} 1.0",
				"khamsin_tls_handshake_failures_total{reason=\"cleartext\"} 1.0",
				"khamsin_tls_closed_before_hello_total 1.0");
	}

	@Test
	void quicRetriesAndThePacketsOfClosedConnectionsAreCounted() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TlsConfig tls = TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("localhost")).build();
		start(MetricsConfig.defaults(), KhamsinServerConfig.builder()
			.reactors(2)
			.tls(tls)
			.http3(Http3Config.builder().enabled(true).build())
			.build());
		assertThat(this.registry.get("khamsin.quic.retries").functionCounter().count()).isZero();
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			assertThat(client.send("GET", "/plaintext", null).text()).isEqualTo("Hello, World!");
			assertThat(this.registry.get("khamsin.quic.connections.active").gauge().value()).isEqualTo(1);
			// The new client was sent a Retry (retry is on by default) and echoed its token.
			assertThat(this.registry.get("khamsin.quic.retries").functionCounter().count()).isGreaterThanOrEqualTo(1);
			assertThat(packets("sent")).as("counted when the connection closes").isZero();
		}
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(this.registry.get("khamsin.quic.connections.active").gauge().value()).isZero();
			// A handshake, the HTTP/3 control streams, a request and its response, in each direction.
			assertThat(packets("sent")).isGreaterThanOrEqualTo(3);
			assertThat(packets("received")).isGreaterThanOrEqualTo(3);
		});
		assertThat(this.registry.get("khamsin.quic.packets.lost").functionCounter().count()).isNotNegative();
		assertThat(this.registry.get("khamsin.quic.tokens.rejected").functionCounter().count()).isZero();
		assertThat(this.registry.scrape()).contains("khamsin_quic_retries_total",
				"khamsin_quic_packets_total{direction=\"sent\"}", "khamsin_quic_packets_lost_total",
				"khamsin_quic_streams_active");
	}

	private double packets(String direction) {
		return this.registry.get("khamsin.quic.packets").tag("direction", direction).functionCounter().count();
	}

	private double handshakes(String result) {
		return this.registry.get("khamsin.tls.handshakes").tag("result", result).functionCounter().count();
	}

	@Test
	void switchedOffMetricsPublishOnlyConnectionsGuardsAndHandshakes() {
		start(MetricsConfig.builder().enabled(false).build());
		assertThat(this.registry.find("khamsin.tls.handshakes").functionCounters()).hasSize(2);
		assertThat(this.registry.find("khamsin.tls.closed.before.hello").functionCounter()).isNotNull();
		assertThat(this.registry.find("khamsin.connections.active").gauge()).isNotNull();
		assertThat(this.registry.find("khamsin.guard.events").functionCounters()).isNotEmpty();
		assertThat(this.registry.find("khamsin.requests.active").gauge()).isNull();
		assertThat(this.registry.find("khamsin.bytes.sent").functionCounter()).isNull();
	}

	@Test
	void aDrainIntervalThatIsNotPositiveIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new KhamsinMeterBinder(KhamsinMetrics.create(MetricsConfig.defaults()), TIMER,
					Duration.ZERO))
			.withMessageContaining("drainInterval");
	}

	private static List<Double> buckets(String scrape) {
		Matcher matcher = Pattern.compile("khamsin_requests_seconds_bucket\\{[^}]*route=\"other\"[^}]*} (\\S+)")
			.matcher(scrape);
		List<Double> counts = new ArrayList<>();
		while (matcher.find()) {
			counts.add(Double.parseDouble(matcher.group(1)));
		}
		return counts;
	}

}
