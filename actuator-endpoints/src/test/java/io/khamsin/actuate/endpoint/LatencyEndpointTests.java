package io.khamsin.actuate.endpoint;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

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
