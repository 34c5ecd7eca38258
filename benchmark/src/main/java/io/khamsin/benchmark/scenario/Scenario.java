package io.khamsin.benchmark.scenario;

import java.util.List;

import io.khamsin.benchmark.report.MarkdownReport;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;
import io.khamsin.benchmark.target.Wire;

/**
 * A scenario of BENCHMARKING.md: what load, and what figure per target and round.
 */
public interface Scenario {

	/** @return the stable name (reports, charts and checks use it) */
	String name();

	/** @return the unit of the figure */
	String unit();

	/** @return whether a higher figure is better */
	boolean higherIsBetter();

	/** @return what the figure is, in one line for the report */
	String figure();

	/**
	 * @return how the report's headline names the figure: a rate is the open-loop figure within the p99 bound,
	 * unless the scenario measures it another way
	 */
	default String headline() {
		return MarkdownReport.Section.defaultHeadline(unit());
	}

	/** @return the routes a target must answer correctly to be measured */
	List<Route> routes();

	/** @return what the scenario speaks to its targets, and so what they are launched to speak */
	default Wire wire() {
		return Wire.HTTP1;
	}

	/**
	 * @return whether the scenario can measure {@code target} (e.g. heap figures need a JVM); a target that cannot
	 * be launched on the scenario's wire cannot
	 */
	default boolean appliesTo(TargetSpec target) {
		return target.wires().contains(wire());
	}

	/**
	 * @return whether each round starts its own process per target ({@link #measureFresh}); otherwise targets are
	 * started once, checked and warmed, and measured while they run ({@link #measure})
	 */
	default boolean restartsPerRound() {
		return false;
	}

	/**
	 * Warm a running target up before its first round.
	 * @return how ({@link WarmUp#NONE} when the scenario needs none)
	 */
	default WarmUp warmUp(RunContext context, RunningTarget target) {
		return WarmUp.NONE;
	}

	/**
	 * Stop what the scenario keeps running from one run to the next (a generator's JVM), once its last round of its
	 * last target is over; it may be measured again afterwards and start it anew.
	 */
	default void finish() {
	}

	/**
	 * What this scenario measures once every target is warm: itself, or a copy that knows something of all the
	 * targets (the rates at which latency is compared at equal load, from the slowest target's peak).
	 * @param warmUps each warmed target's warm-up, by name
	 */
	default Scenario calibrate(RunContext context, java.util.Map<String, WarmUp> warmUps) {
		return this;
	}

	/**
	 * @return the figure of a round whose spread across rounds decides whether the round is run again: the
	 * headline of the scenario (its value, unless the scenario says otherwise)
	 */
	default double gateFigure(Measurement measurement) {
		return measurement.value();
	}

	/**
	 * Measure a running target.
	 * @param previous this target's measurement in the previous round, or {@code null} in the first
	 */
	default Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		throw new UnsupportedOperationException(name() + " restarts its targets each round");
	}

	/** Start, measure and stop {@code target} within one round. */
	default Measurement measureFresh(RunContext context, TargetSpec target, int round) {
		throw new UnsupportedOperationException(name() + " measures running targets");
	}

	/**
	 * A started target that passed the integrity check.
	 *
	 * @param process the process
	 * @param bodyLengths the body length it answered on each route, by route name
	 */
	record RunningTarget(TargetProcess process, java.util.Map<String, Long> bodyLengths) {

		public String name() {
			return this.process.spec().name();
		}

		public long bodyLength(Route route) {
			return this.bodyLengths.getOrDefault(route.name(), -1L);
		}

	}

}
