package io.khamsin.benchmark.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of {@code summary.json}: a scenario and target, the median of its rounds and their spread
 * ({@code (max - min) / median}, in percent). Figures measured beside the value (closed-loop peak, load core
 * utilisation, ...) follow as extra fields, each the median of its rounds.
 */
@JsonPropertyOrder({ "scenario", "target", "value", "unit", "higher_is_better", "rounds", "spread_pct", "p50_ms",
		"p99_ms", "note" })
public record SummaryRow(String scenario, String target, double value, String unit,
		@JsonProperty("higher_is_better") boolean higherIsBetter, List<Double> rounds,
		@JsonProperty("spread_pct") double spreadPct, @JsonProperty("p50_ms") Double p50Ms,
		@JsonProperty("p99_ms") Double p99Ms, String note, @com.fasterxml.jackson.annotation.JsonIgnore Map<String, Object> extras) {

	/** Rows whose spread is over this, in percent, are flagged. */
	public static final double SPREAD_FLAG_PCT = 5.0;

	@JsonAnyGetter
	public Map<String, Object> extraFields() {
		return this.extras;
	}

	/** @return whether the rounds disagree by more than {@link #SPREAD_FLAG_PCT} */
	public boolean flagged() {
		return this.spreadPct > SPREAD_FLAG_PCT;
	}

	/**
	 * Summarize rounds.
	 * @param values the figure of each round
	 * @param p50s the p50 of each round (nulls when none)
	 * @param p99s the p99 of each round
	 * @param notes each round's note
	 * @param extras each round's extra figures
	 */
	public static SummaryRow of(String scenario, String target, String unit, boolean higherIsBetter, List<Double> values,
			List<Double> p50s, List<Double> p99s, List<String> notes, List<Map<String, Object>> extras) {
		double median = median(values);
		double spread = spreadPct(values);
		List<String> distinct = notes.stream().filter((n) -> n != null && !n.isEmpty()).distinct().toList();
		Map<String, Object> merged = new LinkedHashMap<>();
		for (Map<String, Object> round : extras) {
			for (String key : round.keySet()) {
				merged.computeIfAbsent(key, (k) -> medianOf(extras, k));
			}
		}
		return new SummaryRow(scenario, target, round3(median), unit, higherIsBetter,
				values.stream().map(SummaryRow::round3).toList(), Math.round(spread * 10) / 10.0,
				medianOrNull(p50s), medianOrNull(p99s), String.join("; ", distinct), merged);
	}

	private static Object medianOf(List<Map<String, Object>> extras, String key) {
		List<Double> numbers = new ArrayList<>();
		Object last = null;
		for (Map<String, Object> round : extras) {
			Object value = round.get(key);
			if (value instanceof Number number) {
				numbers.add(number.doubleValue());
			}
			else if (value != null) {
				last = value;
			}
		}
		return numbers.isEmpty() ? last : round3(median(numbers));
	}

	private static Double medianOrNull(List<Double> values) {
		List<Double> present = values.stream().filter(Objects::nonNull).toList();
		return present.isEmpty() ? null : round3(median(present));
	}

	/** @return {@code (max - min) / median} of {@code values}, in percent (0 when the median is 0) */
	public static double spreadPct(List<Double> values) {
		double median = median(values);
		return (median != 0) ? (max(values) - min(values)) / Math.abs(median) * 100 : 0;
	}

	/** @return the median of {@code values}, 0 for none */
	public static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		if (sorted.length == 0) {
			return 0;
		}
		int mid = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	}

	private static double max(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
	}

	private static double min(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
	}

	private static double round3(double value) {
		return Math.round(value * 1000) / 1000.0;
	}

	@Override
	public String toString() {
		return this.scenario + "/" + this.target + "=" + this.value + " " + this.unit + " " + Arrays.toString(
				this.rounds.toArray());
	}

}
