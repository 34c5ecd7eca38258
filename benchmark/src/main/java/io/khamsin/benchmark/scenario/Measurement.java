package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One target's figure in one round of a scenario.
 *
 * @param value the figure, in the scenario's unit
 * @param p50Ms the median latency of the measured trial, or {@code null} when the scenario has none
 * @param p99Ms the p99 latency of the measured trial, or {@code null}
 * @param note what to know about this figure (empty for nothing)
 * @param extras figures that go beside it (closed-loop peak, load core utilisation, ...)
 * @param raw everything measured on the way (trials), for the raw results
 */
public record Measurement(double value, Double p50Ms, Double p99Ms, String note, Map<String, Object> extras,
		Object raw) {

	public Measurement {
		extras = new LinkedHashMap<>(extras);
		note = (note != null) ? note : "";
	}

	/** A figure without latency. */
	public static Measurement of(double value, String note, Map<String, Object> extras, Object raw) {
		return new Measurement(value, null, null, note, extras, raw);
	}

}
