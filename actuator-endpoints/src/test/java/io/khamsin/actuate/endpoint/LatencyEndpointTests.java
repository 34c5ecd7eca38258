package io.khamsin.actuate.endpoint;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.khamsin.actuate.endpoint.LatencyEndpoint.Interval;
import io.khamsin.actuate.endpoint.LatencyEndpoint.LatencyDescriptor;
import io.khamsin.actuate.endpoint.LatencyEndpoint.Percentiles;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class LatencyEndpointTests {

	private KhamsinServer server;

	private LatencyEndpoint endpoint;

	@BeforeEach
	void start() throws Exception {
		KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.builder().interval(Duration.ofMillis(1)).build());
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				new TestRoutes(Path.of("missing")).handler(), metrics);
		this.server.start();
		this.endpoint = new LatencyEndpoint(metrics);
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < 10; i++) {
			client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.server.port() + "/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
		}
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	@Test
	void percentilesAreOrderedAndCountEveryRequest() {
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			LatencyDescriptor latency = (LatencyDescriptor) this.endpoint.latency(null).getBody();
			assertThat(latency.unit()).isEqualTo("milliseconds");
			assertThat(latency.sinceStart()).hasSize(1);
			Percentiles all = latency.sinceStart().get(0);
			assertThat(all.count()).isEqualTo(10);
			assertThat(all.route()).isEqualTo("other");
			assertThat(all.p50()).isPositive().isLessThanOrEqualTo(all.p90());
			assertThat(all.p90()).isLessThanOrEqualTo(all.p99());
			assertThat(all.p99()).isLessThanOrEqualTo(all.p999());
			assertThat(all.p999()).isLessThanOrEqualTo(all.p9999());
			assertThat(all.max()).isLessThanOrEqualTo(all.p9999());
			assertThat(latency.interval()).isNotNull();
		});
	}

	@Test
	void eachLastIntervalHoldsTheRequestsServedInItAndTheyAddUpToThoseSinceStart() throws Exception {
		KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.builder().interval(Duration.ofMillis(200)).build());
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				new TestRoutes(Path.of("missing")).handler(), metrics);
		server.start();
		try {
			// An interval ends at the first read after its end, and that read reports it, so reading in a loop sees
			// every interval once, however the requests fell into them.
			LatencyEndpoint endpoint = new LatencyEndpoint(metrics);
			Intervals intervals = new Intervals();
			get(server, 4);
			await().atMost(Duration.ofSeconds(20)).until(() -> intervals.read(endpoint) == 4);
			get(server, 3);
			await().atMost(Duration.ofSeconds(20)).until(() -> intervals.read(endpoint) == 7);
			LatencyDescriptor latest = (LatencyDescriptor) endpoint.latency(null).getBody();
			assertThat(count(latest.sinceStart())).isEqualTo(7);
			assertThat(intervals.contiguous).as("each interval starts where the one before ended").isTrue();
			// Once nothing is served, an interval that ends has nothing in it.
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(((LatencyDescriptor) endpoint.latency(null).getBody()).lastInterval())
					.isEmpty());
		}
		finally {
			server.stop();
		}
	}

	/** The requests of every last interval read so far, each counted when it is first reported. */
	private static final class Intervals {

		private Interval last;

		private long requests;

		private boolean contiguous = true;

		long read(LatencyEndpoint endpoint) {
			LatencyDescriptor latency = (LatencyDescriptor) endpoint.latency(null).getBody();
			Interval interval = latency.interval();
			if (interval != null && !interval.equals(this.last)) {
				if (this.last != null && !interval.start().equals(this.last.end())) {
					this.contiguous = false;
				}
				this.last = interval;
				this.requests += count(latency.lastInterval());
				latency.lastInterval().forEach((entry) -> {
					assertThat(entry.route()).isEqualTo("other");
					assertThat(entry.status()).isEqualTo("2xx");
					assertThat(entry.p50()).isPositive().isLessThanOrEqualTo(entry.max());
				});
			}
			return this.requests;
		}

	}

	private static void get(KhamsinServer server, int times) throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < times; i++) {
			client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
		}
	}

	private static long count(List<Percentiles> percentiles) {
		return percentiles.stream().mapToLong(Percentiles::count).sum();
	}

	@Test
	void hdrFormatIsAHistogramLogThatHdrHistogramReads() {
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			WebEndpointResponse<Object> response = this.endpoint.latency("hdr");
			assertThat(response.getStatus()).isEqualTo(200);
			assertThat(response.getContentType().toString()).startsWith("text/plain");
			HistogramLogReader reader = new HistogramLogReader(
					new ByteArrayInputStream(((String) response.getBody()).getBytes(StandardCharsets.UTF_8)));
			EncodableHistogram read = reader.nextIntervalHistogram();
			assertThat(read).isInstanceOf(Histogram.class);
			assertThat(((Histogram) read).getTotalCount()).isEqualTo(10);
			assertThat(read.getTag()).isEqualTo("protocol=h1;status=2xx;route=other;path=handler");
			assertThat(reader.nextIntervalHistogram()).isNull();
		});
	}

	@Test
	void anUnknownFormatIsABadRequestThatNamesTheFormats() {
		WebEndpointResponse<Object> response = this.endpoint.latency("csv");
		assertThat(response.getStatus()).isEqualTo(400);
		assertThat((String) response.getBody()).contains("'csv'", "hdr");
	}

}
