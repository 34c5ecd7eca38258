package io.khamsin.container.metrics;

import java.time.Instant;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * The latencies of every tag combination, in nanoseconds, since start and for the last complete interval.
 * The histograms are copies that belong to the caller.
 *
 * @param started when recording started
 * @param intervalStart the start of the last complete interval, or {@code null} if none completed yet
 * @param intervalEnd the end of the last complete interval, or {@code null} if none completed yet
 * @param lastInterval the latencies of the last complete interval, by tags
 * @param sinceStart the latencies since start, by tags
 */
public record LatencySnapshot(Instant started, Instant intervalStart, Instant intervalEnd,
		Map<LatencyKey, Histogram> lastInterval, Map<LatencyKey, Histogram> sinceStart) {

}
