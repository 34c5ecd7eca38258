package io.khamsin.benchmark.soak;

import java.time.Duration;

/**
 * One kind of traffic on one protocol, sent at a steady, moderate rate for the load phase of a soak. A run returns
 * when its last request is answered and every connection it opened is closed.
 */
interface Workload {

	/** @return the name in the summary, {@code <protocol>-<kind>}: {@code h1-churn}, {@code h3-upload}, ... */
	String name();

	/** @return what it sends, in one line */
	String description();

	/**
	 * Send for {@code duration}.
	 * @return what came back
	 * @throws Exception when the load cannot start at all (counted as an error of the workload)
	 */
	Outcome run(Duration duration) throws Exception;

	/**
	 * What a workload saw.
	 *
	 * @param requests requests answered as they must be (2xx, the expected body)
	 * @param errors requests that were not: another status, a closed or failed connection, no answer, a wrong body
	 * @param firstError what the first error was, or {@code null}
	 * @param seconds how long the run took, until its last connection was closed ({@code 0} when not measured)
	 */
	record Outcome(long requests, long errors, String firstError, double seconds) {

		Outcome(long requests, long errors, String firstError) {
			this(requests, errors, firstError, 0);
		}

		/** @return both outcomes as one */
		Outcome plus(Outcome other) {
			return new Outcome(this.requests + other.requests, this.errors + other.errors,
					(this.firstError != null) ? this.firstError : other.firstError,
					Math.max(this.seconds, other.seconds));
		}

		/** @return this outcome, measured to have taken {@code seconds} */
		Outcome took(double seconds) {
			return new Outcome(this.requests, this.errors, this.firstError, seconds);
		}

	}

}
