package io.khamsin.benchmark.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * How a target was warmed up before its first round: closed-loop load in windows of a few seconds until two
 * successive windows agree within a tolerance and a minimum time has passed (a JVM on one core compiles for a minute
 * or more while it serves: shorter warm-ups flatter whichever target warms fastest), or until a maximum time, after
 * which the target is measured anyway and the report says it was not steady.
 *
 * @param seconds how long it took
 * @param windows the rate of each window, requests per second
 * @param steady whether the last two windows agreed within the tolerance
 * @param rule the rule it followed
 */
public record WarmUp(double seconds, List<Double> windows, boolean steady, Rule rule) {

	/** No warm-up: the scenario has none, or the target needs none. */
	public static final WarmUp NONE = new WarmUp(0, List.of(), true, null);

	public WarmUp {
		windows = List.copyOf(windows);
	}

	/** @return the rate of the last window, requests per second, or 0 without windows */
	public double rate() {
		return this.windows.isEmpty() ? 0 : this.windows.get(this.windows.size() - 1);
	}

	/** @return one line for the report, e.g. {@code 65 s, steady at 41,900 req/s} */
	public String describe() {
		if (this.rule == null) {
			return "none";
		}
		int n = this.windows.size();
		String last = (n >= 2) ? String.format(Locale.ROOT, "%,.0f then %,.0f req/s", this.windows.get(n - 2),
				this.windows.get(n - 1)) : String.format(Locale.ROOT, "%,.0f req/s", rate());
		return String.format(Locale.ROOT, "%.0f s, %s (%s)", this.seconds,
				this.steady ? "steady" : "NOT steady within " + fmt(this.rule.tolerance() * 100) + "% after the "
						+ fmt(this.rule.maximumSeconds()) + " s limit",
				last);
	}

	private static String fmt(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

	/**
	 * When a warm-up ends.
	 *
	 * @param windowSeconds the length of one window
	 * @param minimumSeconds the least warm-up
	 * @param maximumSeconds the most warm-up
	 * @param tolerance how far two successive windows may differ, as a fraction of the higher one
	 */
	public record Rule(double windowSeconds, double minimumSeconds, double maximumSeconds, double tolerance) {

		/** Windows of 5 s, within 3% of each other. */
		public static final double WINDOW_SECONDS = 5;

		public static final double TOLERANCE = 0.03;

		/** A program that is no JVM has no compiler to wait for: two windows are enough. */
		static final double NATIVE_MINIMUM_SECONDS = 2 * WINDOW_SECONDS;

		/**
		 * @param settings the campaign's settings (the least and most warm-up of a JVM target)
		 * @param jvm whether the target is a JVM
		 */
		public static Rule of(Settings settings, boolean jvm) {
			double minimum = jvm ? settings.warmupSeconds() : NATIVE_MINIMUM_SECONDS;
			return new Rule(WINDOW_SECONDS, minimum, Math.max(minimum, settings.warmupMaxSeconds()), TOLERANCE);
		}

		/**
		 * @param windows the rates of the windows so far
		 * @param elapsedSeconds the time they took
		 * @return whether the warm-up may end: the minimum has passed and the last two windows agree
		 */
		public boolean steady(List<Double> windows, double elapsedSeconds) {
			int n = windows.size();
			if (elapsedSeconds < this.minimumSeconds || n < 2) {
				return false;
			}
			double last = windows.get(n - 1);
			double before = windows.get(n - 2);
			double higher = Math.max(last, before);
			return higher > 0 && Math.abs(last - before) <= this.tolerance * higher;
		}

		/**
		 * Run windows until steady or out of time.
		 * @param window runs one window of the given seconds of load and returns its rate
		 * @return what happened
		 */
		public WarmUp run(DoubleUnaryOperator window) {
			List<Double> windows = new ArrayList<>();
			double elapsed = 0;
			while (true) {
				windows.add(window.applyAsDouble(this.windowSeconds));
				elapsed += this.windowSeconds;
				if (steady(windows, elapsed)) {
					return new WarmUp(elapsed, windows, true, this);
				}
				if (elapsed + this.windowSeconds > this.maximumSeconds) {
					return new WarmUp(elapsed, windows, false, this);
				}
			}
		}

	}

}
