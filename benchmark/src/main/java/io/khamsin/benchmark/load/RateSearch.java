package io.khamsin.benchmark.load;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;

/**
 * Finds the highest fixed rate that a server sustains within a latency bound: no errors, at least
 * {@link #MIN_ACHIEVED_RATIO} of the offered rate achieved, and p99 at or under the bound. It steps from a first
 * guess (up by {@link #GROWTH} while trials pass, down by halves while they fail) until a passing and a failing
 * rate bracket the answer, then bisects the bracket with the trials left.
 * <p>
 * A trial that achieved the offered rate but failed on latency or errors is repeated once at the same rate before
 * the rate counts as failed: on a shared machine one stall of the host fails a trial the server would pass, and a
 * search that believes it walks away from the answer (a later round, with few trials, could end with none passing).
 * A trial that fell short of the offered rate is not repeated: the server could not keep up. A repeat is one of the
 * search's trials.
 */
public final class RateSearch {

	/** The least share of the offered rate a trial must achieve to pass. */
	public static final double MIN_ACHIEVED_RATIO = 0.9;

	/** How much the rate grows per step while trials pass and no failing rate is known. */
	public static final double GROWTH = 1.25;

	private final DoubleFunction<LoadResult> trial;

	private final double p99BoundMillis;

	private final Consumer<Step> progress;

	/**
	 * @param trial runs one trial at a rate (requests per second)
	 * @param p99BoundMillis the p99 bound in milliseconds
	 * @param progress told of each trial as it ends
	 */
	public RateSearch(DoubleFunction<LoadResult> trial, double p99BoundMillis, Consumer<Step> progress) {
		this.trial = trial;
		this.p99BoundMillis = p99BoundMillis;
		this.progress = progress;
	}

	/**
	 * Search.
	 * @param firstGuess the first rate tried (e.g. 90% of the closed-loop peak, or the previous round's answer)
	 * @param trials how many trials at most
	 * @return the highest passing rate and its trial, with every step taken
	 */
	public Outcome search(double firstGuess, int trials) {
		return search(firstGuess, trials, GROWTH, 0.5);
	}

	/**
	 * Search near a known answer (a later round): small steps up while trials pass, down while they fail.
	 * @param firstGuess the first rate tried
	 * @param trials how many trials at most
	 * @param growth the factor up per step while no trial has failed
	 * @param shrink the factor down per step while no trial has passed
	 * @return the highest passing rate and its trial, with every step taken
	 */
	public Outcome search(double firstGuess, int trials, double growth, double shrink) {
		if (firstGuess <= 0) {
			throw new IllegalArgumentException("firstGuess must be positive, was " + firstGuess);
		}
		List<Step> steps = new ArrayList<>();
		double pass = 0;
		LoadResult best = null;
		double fail = Double.POSITIVE_INFINITY;
		double rate = firstGuess;
		boolean repeating = false;
		for (int i = 0; i < trials; i++) {
			LoadResult result = this.trial.apply(rate);
			String verdict = verdict(result);
			Step step = new Step(i + 1, rate, result, verdict == null, verdict, repeating);
			steps.add(step);
			this.progress.accept(step);
			if (verdict != null && !repeating && i + 1 < trials && worthRepeating(result)) {
				repeating = true;
				continue;
			}
			repeating = false;
			if (verdict == null) {
				pass = rate;
				best = result;
			}
			else {
				fail = rate;
			}
			if (fail == Double.POSITIVE_INFINITY) {
				rate = pass * growth;
			}
			else if (pass == 0) {
				rate = fail * shrink;
			}
			else {
				rate = (pass + fail) / 2;
			}
			rate = Math.max(1, Math.round(rate));
		}
		return new Outcome(pass, best, steps);
	}

	/** A failed trial is worth repeating when the server kept up with the offered rate. */
	private static boolean worthRepeating(LoadResult result) {
		return result.achievedRate() >= MIN_ACHIEVED_RATIO * result.offeredRate();
	}

	/**
	 * Why a trial fails, or {@code null} if it passes.
	 */
	public String verdict(LoadResult result) {
		if (result.errors() > 0) {
			return result.errors() + " errors (" + result.firstError() + ")";
		}
		if (result.achievedRate() < MIN_ACHIEVED_RATIO * result.offeredRate()) {
			return String.format("achieved %.0f/s, under %.0f%% of %.0f/s", result.achievedRate(),
					MIN_ACHIEVED_RATIO * 100, result.offeredRate());
		}
		if (result.p99Millis() > this.p99BoundMillis) {
			return String.format("p99 %.3f ms over %.1f ms", result.p99Millis(), this.p99BoundMillis);
		}
		return null;
	}

	/**
	 * One trial of the search.
	 *
	 * @param number the trial's number, from 1
	 * @param rate the rate tried
	 * @param result what it measured
	 * @param passed whether it passed
	 * @param reason why it failed, or {@code null}
	 * @param repeat whether it repeats the failed trial before it at the same rate
	 */
	public record Step(int number, double rate, LoadResult result, boolean passed, String reason, boolean repeat) {

	}

	/**
	 * The answer of a search.
	 *
	 * @param rate the highest passing rate, {@code 0} if none passed
	 * @param result the trial at that rate, or {@code null}
	 * @param steps every trial, in order
	 */
	public record Outcome(double rate, LoadResult result, List<Step> steps) {

		public Outcome {
			steps = List.copyOf(steps);
		}

	}

}
