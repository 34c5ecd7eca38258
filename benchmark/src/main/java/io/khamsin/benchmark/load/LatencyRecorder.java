package io.khamsin.benchmark.load;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * Records each response twice: its <em>response time</em>, from the request's intended send time on the schedule,
 * and its <em>service time</em>, from the moment the request actually left. The response time is the figure: when
 * a server stalls, the requests that the schedule wanted to send during the stall wait in the generator, and only
 * the intended time counts that wait (coordinated omission). The service time is kept to show the difference.
 * Single-threaded: the generator's event loop is the only writer.
 */
public final class LatencyRecorder {

	static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(120);

	private final Histogram responseTime = new Histogram(HIGHEST_NANOS, 3);

	private final Histogram serviceTime = new Histogram(HIGHEST_NANOS, 3);

	private final Histogram sendLag = new Histogram(HIGHEST_NANOS, 3);

	private final Histogram refusalTime = new Histogram(HIGHEST_NANOS, 3);

	/**
	 * Record a successful response.
	 * @param intendedNanos when the schedule wanted the request sent
	 * @param sentNanos when it was written
	 * @param completedNanos when its last byte arrived
	 */
	public void record(long intendedNanos, long sentNanos, long completedNanos) {
		this.responseTime.recordValue(clamp(completedNanos - intendedNanos));
		this.serviceTime.recordValue(clamp(completedNanos - sentNanos));
		this.sendLag.recordValue(clamp(sentNanos - intendedNanos));
	}

	/**
	 * Record a response that refused the request ({@code 503 Service Unavailable}), which is not a success.
	 * @param intendedNanos when the schedule wanted the request sent
	 * @param completedNanos when its last byte arrived
	 */
	public void recordRefusal(long intendedNanos, long completedNanos) {
		this.refusalTime.recordValue(clamp(completedNanos - intendedNanos));
	}

	/** @return response times of refusals from the intended send time, in nanoseconds */
	public Histogram refusalTime() {
		return this.refusalTime;
	}

	private static long clamp(long nanos) {
		return Math.max(0, Math.min(nanos, HIGHEST_NANOS));
	}

	/** @return response times from the intended send time, in nanoseconds (coordinated-omission corrected) */
	public Histogram responseTime() {
		return this.responseTime;
	}

	/** @return service times from the actual send, in nanoseconds (not corrected: for comparison only) */
	public Histogram serviceTime() {
		return this.serviceTime;
	}

	/** @return how late requests left against their schedule, in nanoseconds */
	public Histogram sendLag() {
		return this.sendLag;
	}

}
