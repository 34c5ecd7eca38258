package io.khamsin.benchmark.load;

import org.HdrHistogram.Histogram;

/**
 * What one load run measured. Latencies are in the measured window only, from the intended send time.
 *
 * @param offeredRate the scheduled rate in requests per second ({@code 0}: closed loop)
 * @param achievedRate responses completed per second of the window
 * @param completed correct responses to requests intended in the window
 * @param errors requests intended in the window that got a wrong answer, a closed connection or no answer
 * @param firstError what the first error was, or {@code null}
 * @param responseTime response times in nanoseconds, coordinated-omission corrected
 * @param serviceTimeP99Nanos p99 of the time from actual send to answer (not corrected; for comparison)
 * @param sendLagP99Nanos p99 of how late requests left against the schedule (high: the generator fell behind)
 * @param bodyBytes response body bytes received in the window
 * @param windowNanos the length of the window
 * @param handshakes TLS handshakes completed in the window (0 in cleartext)
 * @param resumedHandshakes those of them that resumed an earlier session, as the client's engine saw it
 * @param refusalTime response times of the requests intended in the window that were answered
 * {@code 503 Service Unavailable} (counted among the errors too), from the intended send time
 */
public record LoadResult(double offeredRate, double achievedRate, long completed, long errors, String firstError,
		Histogram responseTime, long serviceTimeP99Nanos, long sendLagP99Nanos, long bodyBytes, long windowNanos,
		long handshakes, long resumedHandshakes, Histogram refusalTime) {

	/** A result without a record of refusals. */
	public LoadResult(double offeredRate, double achievedRate, long completed, long errors, String firstError,
			Histogram responseTime, long serviceTimeP99Nanos, long sendLagP99Nanos, long bodyBytes, long windowNanos,
			long handshakes, long resumedHandshakes) {
		this(offeredRate, achievedRate, completed, errors, firstError, responseTime, serviceTimeP99Nanos,
				sendLagP99Nanos, bodyBytes, windowNanos, handshakes, resumedHandshakes, new Histogram(3));
	}

	/** A result in cleartext. */
	public LoadResult(double offeredRate, double achievedRate, long completed, long errors, String firstError,
			Histogram responseTime, long serviceTimeP99Nanos, long sendLagP99Nanos, long bodyBytes, long windowNanos) {
		this(offeredRate, achievedRate, completed, errors, firstError, responseTime, serviceTimeP99Nanos,
				sendLagP99Nanos, bodyBytes, windowNanos, 0, 0);
	}

	/**
	 * A response-time percentile.
	 * @param percentile e.g. {@code 99.0}
	 * @return milliseconds
	 */
	public double percentileMillis(double percentile) {
		return this.responseTime.getValueAtPercentile(percentile) / 1e6;
	}

	/** @return p50 in milliseconds */
	public double p50Millis() {
		return percentileMillis(50);
	}

	/** @return p99 in milliseconds */
	public double p99Millis() {
		return percentileMillis(99);
	}

	/** @return response body megabytes (10^6) per second over the window */
	public double megabytesPerSecond() {
		return this.bodyBytes / 1e6 / (this.windowNanos / 1e9);
	}

	/** @return one line: rates, errors and p50..p99.99 */
	public String describe() {
		return String.format("offered %s, achieved %.0f/s, errors %d, p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f "
				+ "p99.99 %.3f ms (service p99 %.3f, send lag p99 %.3f ms)%s",
				(this.offeredRate == 0) ? "closed loop" : String.format("%.0f/s", this.offeredRate), this.achievedRate,
				this.errors, percentileMillis(50), percentileMillis(90), percentileMillis(99), percentileMillis(99.9),
				percentileMillis(99.99), this.serviceTimeP99Nanos / 1e6, this.sendLagP99Nanos / 1e6,
				(this.firstError != null) ? " first error: " + this.firstError : "");
	}

}
