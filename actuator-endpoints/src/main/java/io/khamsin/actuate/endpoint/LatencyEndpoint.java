package io.khamsin.actuate.endpoint;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.util.MimeType;

import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.LatencyKey;
import io.khamsin.container.metrics.LatencySnapshot;

/**
 * {@link WebEndpoint @WebEndpoint} that reports khamsin's request latencies, from the first byte of a request
 * to the last byte of its response, per protocol, status class, route and path: p50, p90, p99, p99.9, p99.99,
 * max and count, in milliseconds, since start and for the last complete interval. {@code ?format=hdr} answers
 * the histograms since start as an HdrHistogram log, one tagged histogram per combination, for
 * {@code HistogramLogProcessor} and other offline tools (values in nanoseconds).
 */
@WebEndpoint(id = "latency")
public class LatencyEndpoint {

	static final String HDR_FORMAT = "hdr";

	private static final MimeType TEXT_PLAIN = MimeType.valueOf("text/plain;charset=utf-8");

	private final KhamsinMetrics metrics;

	/**
	 * Create the endpoint.
	 * @param metrics the figures to report
	 */
	public LatencyEndpoint(KhamsinMetrics metrics) {
		this.metrics = metrics;
	}

	@ReadOperation(produces = { "application/vnd.spring-boot.actuator.v3+json", "application/json", "text/plain" })
	public WebEndpointResponse<Object> latency(@Nullable String format) {
		LatencySnapshot snapshot = this.metrics.latency();
		if (format == null || format.isEmpty()) {
			return new WebEndpointResponse<>(describe(snapshot));
		}
		if (HDR_FORMAT.equals(format)) {
			return new WebEndpointResponse<>(hdrLog(snapshot), WebEndpointResponse.STATUS_OK, TEXT_PLAIN);
		}
		return new WebEndpointResponse<>("Unknown format '" + format + "': leave it out for JSON, or use 'hdr'",
				WebEndpointResponse.STATUS_BAD_REQUEST, TEXT_PLAIN);
	}

	private LatencyDescriptor describe(LatencySnapshot snapshot) {
		Interval interval = (snapshot.intervalStart() != null)
				? new Interval(snapshot.intervalStart(), snapshot.intervalEnd()) : null;
		return new LatencyDescriptor("milliseconds", snapshot.started(), this.metrics.enabled(), interval,
				percentiles(snapshot.lastInterval()), percentiles(snapshot.sinceStart()));
	}

	private static List<Percentiles> percentiles(Map<LatencyKey, Histogram> histograms) {
		List<Percentiles> percentiles = new ArrayList<>();
		histograms.forEach((key, histogram) -> percentiles.add(new Percentiles(key.protocol().tag(), key.status(),
				key.route(), key.path().tag(), histogram.getTotalCount(), millis(histogram, 50),
				millis(histogram, 90), millis(histogram, 99), millis(histogram, 99.9), millis(histogram, 99.99),
				histogram.getMaxValue() / 1e6)));
		return percentiles;
	}

	private static double millis(Histogram histogram, double percentile) {
		return histogram.getValueAtPercentile(percentile) / 1e6;
	}

	private static String hdrLog(LatencySnapshot snapshot) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8);
		HistogramLogWriter writer = new HistogramLogWriter(out);
		long start = snapshot.started().toEpochMilli();
		long end = Instant.now().toEpochMilli();
		writer.outputComment("khamsin request latencies since start, in nanoseconds; tags: protocol;status;route;path");
		writer.outputLogFormatVersion();
		writer.outputStartTime(start);
		writer.setBaseTime(start);
		writer.outputLegend();
		snapshot.sinceStart().forEach((key, histogram) -> {
			histogram.setStartTimeStamp(start);
			histogram.setEndTimeStamp(end);
			histogram.setTag(tag(key));
			writer.outputIntervalHistogram(histogram);
		});
		out.flush();
		return bytes.toString(StandardCharsets.UTF_8);
	}

	private static String tag(LatencyKey key) {
		String tag = "protocol=" + key.protocol().tag() + ";status=" + key.status() + ";route=" + key.route()
				+ ";path=" + key.path().tag();
		// A tag ends at the first comma of its log line and may not hold whitespace.
		return tag.replaceAll("[,\\s]", "_");
	}

	/**
	 * What {@code /actuator/latency} answers.
	 *
	 * @param unit the unit of every latency
	 * @param started when recording started
	 * @param enabled whether khamsin records latencies ({@code khamsin.metrics.enabled})
	 * @param interval the last complete interval, or {@code null} if none completed yet
	 * @param lastInterval the latencies of the last complete interval
	 * @param sinceStart the latencies since start
	 */
	public record LatencyDescriptor(String unit, Instant started, boolean enabled, Interval interval,
			List<Percentiles> lastInterval, List<Percentiles> sinceStart) {

	}

	/**
	 * An interval.
	 *
	 * @param start its start
	 * @param end its end
	 */
	public record Interval(Instant start, Instant end) {

	}

	/**
	 * The latencies of one combination of tags.
	 *
	 * @param protocol the protocol ({@code h1})
	 * @param status the status class ({@code 2xx})
	 * @param route the route
	 * @param path the path through the engine
	 * @param count the number of requests
	 * @param p50 the median
	 * @param p90 the 90th percentile
	 * @param p99 the 99th percentile
	 * @param p999 the 99.9th percentile
	 * @param p9999 the 99.99th percentile
	 * @param max the largest
	 */
	public record Percentiles(String protocol, String status, String route, String path, long count, double p50,
			double p90, double p99, double p999, double p9999, double max) {

	}

}
