package io.khamsin.container.metrics;

import org.HdrHistogram.Histogram;

/**
 * Hears the latencies recorded since the previous drain, once per tag combination that recorded any, e.g. to
 * feed a Micrometer timer. Called by the thread that drains, one call at a time; the histogram is reused after
 * the call returns.
 */
@FunctionalInterface
public interface LatencyListener {

	/**
	 * Latencies recorded since the previous drain.
	 * @param key the tags
	 * @param latencies the latencies, in nanoseconds
	 */
	void onLatencies(LatencyKey key, Histogram latencies);

}
