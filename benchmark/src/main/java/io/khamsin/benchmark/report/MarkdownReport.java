package io.khamsin.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code summary.md}: per scenario, one table with every target's median, its ratio to khamsin (and who wins),
 * the spread of its rounds (flagged over 5%), latency, the load core's utilisation next to throughput, and the
 * chart; losses stand in the same tables as wins.
 */
public final class MarkdownReport {

	/** khamsin's fast path, compared with the servers that answer without a framework (BENCHMARKING.md). */
	static final String FAST_PATH = "khamsin-fixed";

	static final List<String> FAST_PATH_PEERS = List.of("netty-raw", "vertx", "nginx");

	/**
	 * The variants that price one feature, each as {without the feature, with it, what the feature is}: the
	 * feature's cost is how much more the second spends than the first.
	 */
	static final List<List<String>> FEATURE_COSTS = List.of(
			List.of("khamsin-no-metrics", "khamsin", "khamsin's own figures (khamsin against khamsin-no-metrics)"),
			List.of("khamsin", "khamsin-access-log", "the access log (khamsin-access-log against khamsin)"));

	/**
	 * What one scenario contributes.
	 *
	 * @param name the scenario
	 * @param figure what the figure is
	 * @param unit the unit
	 * @param higherIsBetter the direction
	 * @param rows its rows, in report order
	 * @param excluded targets excluded from it, with the reason
	 * @param chart the chart's file name, or {@code null}
	 * @param warmUps how each target was warmed up, by name (empty: no warm-up)
	 * @param reruns the rounds run again because a target's rounds spread too far, by target
	 * @param equalLoad the rates at which every target was measured at equal load, lowest first, each by the prefix
	 * of its figures in a row's extras (empty: none)
	 * @param headline how the headline names the median figure
	 */
	public record Section(String name, String figure, String unit, boolean higherIsBetter, List<SummaryRow> rows,
			Map<String, String> excluded, String chart, Map<String, String> warmUps, Map<String, List<String>> reruns,
			Map<String, Double> equalLoad, String headline) {

		/** A section whose headline names its figure as a rate scenario's or a median. */
		public Section(String name, String figure, String unit, boolean higherIsBetter, List<SummaryRow> rows,
				Map<String, String> excluded, String chart, Map<String, String> warmUps,
				Map<String, List<String>> reruns, Map<String, Double> equalLoad) {
			this(name, figure, unit, higherIsBetter, rows, excluded, chart, warmUps, reruns, equalLoad,
					defaultHeadline(unit));
		}

		/** A section without warm-ups, re-runs or equal-load rates. */
		public Section(String name, String figure, String unit, boolean higherIsBetter, List<SummaryRow> rows,
				Map<String, String> excluded, String chart) {
			this(name, figure, unit, higherIsBetter, rows, excluded, chart, Map.of(), Map.of(), Map.of());
		}

		/**
		 * @param unit a figure's unit
		 * @return the headline's name of the figure of a rate scenario (the open-loop search) or another (a median)
		 */
		public static String defaultHeadline(String unit) {
			return unit.equals("req/s") ? "open loop, within the p99 bound" : "median";
		}

	}

	private MarkdownReport() {
	}

	public static String render(String title, String baseline, List<String> preamble, List<Section> sections,
			Map<String, String> unavailable) {
		StringBuilder md = new StringBuilder();
		md.append("# ").append(title).append("\n\n");
		for (String line : preamble) {
			md.append(line).append("\n");
		}
		md.append("\n## Headline: ratios to ").append(baseline).append("\n\n");
		md.append("| scenario | figure | ").append(baseline).append(" | ");
		md.append("ratio of each target to ").append(baseline).append(" (> 1: the target's figure is higher) |\n");
		md.append("| --- | --- | --- | --- |\n");
		for (Section section : sections) {
			if (section.rows().stream().anyMatch((r) -> r.extras().get("closed_loop_peak") instanceof Number)) {
				headline(md, section, baseline, "closed-loop peak (wrk)", "req/s", true, (r) -> extra(r.extras(),
						"closed_loop_peak"));
			}
			headline(md, section, baseline, section.headline(), section.unit(), section.higherIsBetter(),
					(r) -> r.value());
			if (!section.equalLoad().isEmpty()) {
				String key = EqualLoadTable.middle(section.equalLoad());
				headline(md, section, baseline, String.format(Locale.ROOT, "p99 at equal load, %,.0f req/s",
						section.equalLoad().get(key)), "ms", false, (r) -> extra(r.extras(), key + "_p99_ms"));
			}
		}
		if (!unavailable.isEmpty()) {
			md.append("\nTargets not run: ");
			unavailable.forEach((target, why) -> md.append("`").append(target).append("` (").append(why).append("); "));
			md.append("\n");
		}
		for (Section section : sections) {
			md.append("\n## ").append(section.name()).append("\n\n").append(section.figure()).append(". ")
				.append(section.higherIsBetter() ? "Higher is better." : "Lower is better.").append("\n\n");
			SummaryRow base = base(section, baseline);
			md.append("| target | median | vs ").append(baseline)
				.append(" | rounds | spread | p50 ms | p99 ms | closed-loop peak | load core % at peak | note |\n");
			md.append("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
			for (SummaryRow row : section.rows()) {
				md.append("| ").append(row.target()).append(" | ").append(number(row.value())).append(" ")
					.append(row.unit()).append(" | ")
					.append((base != null && row != base) ? ratio(row, base) + verdict(row, base, baseline,
							section.higherIsBetter()) : (row == base) ? "1.00" : "n/a")
					.append(" | ").append(String.join(" / ", row.rounds().stream().map(MarkdownReport::number).toList()))
					.append(" | ").append(String.format(Locale.ROOT, "%.1f%%", row.spreadPct()))
					.append(row.flagged() ? " ⚠" : "").append(" | ").append(optional(row.p50Ms())).append(" | ")
					.append(optional(row.p99Ms())).append(" | ").append(extra(row, "closed_loop_peak")).append(" | ")
					.append(extra(row, "closed_loop_load_cpu_pct")).append(" | ").append(note(row)).append(" |\n");
			}
			// A target left out by design (a scenario it does not belong to) is "not run"; one that failed is "excluded".
			section.excluded().forEach((target, why) -> md.append("| ").append(target)
				.append((why.startsWith("measured only in") || why.startsWith("does not apply")) ? " | not run" : " | excluded")
				.append(" | | | | | | | | ").append(why.replace("|", "/")).append(" |\n"));
			fastPath(md, section);
			featureCosts(md, section);
			ToolAgreement.render(md, section.rows(), baseline);
			EqualLoadTable.render(md, section, baseline);
			if (!section.warmUps().isEmpty()) {
				md.append("\nWarm-up: ");
				section.warmUps().forEach((target, how) -> md.append(target).append(" ").append(how).append("; "));
				md.setLength(md.length() - 2);
				md.append(".\n");
			}
			if (!section.reruns().isEmpty()) {
				md.append("\nRun again because the rounds spread too far (the later figure stands): ");
				section.reruns().forEach((target, runs) -> md.append(target).append(" ")
					.append(String.join(", ", runs)).append("; "));
				md.setLength(md.length() - 2);
				md.append(".\n");
			}
			if (section.chart() != null) {
				md.append("\n![").append(section.name()).append("](").append(section.chart()).append(")\n");
			}
		}
		md.append("\n⚠: the rounds of this row spread over ").append((int) SummaryRow.SPREAD_FLAG_PCT)
			.append("% ((max - min) / median); compare it with care.\n");
		return md.toString();
	}

	/** One headline row: the baseline's figure, and each other target's ratio to it. */
	private static void headline(StringBuilder md, Section section, String baseline, String figure, String unit,
			boolean higherIsBetter, java.util.function.ToDoubleFunction<SummaryRow> value) {
		SummaryRow base = section.rows().stream().filter((r) -> r.target().equals(baseline)).findFirst().orElse(null);
		double of = (base != null) ? value.applyAsDouble(base) : 0;
		md.append("| ").append(section.name()).append(" | ").append(figure).append(" | ")
			.append((of > 0) ? number(of) + " " + unit : "n/a").append(" | ");
		StringBuilder ratios = new StringBuilder();
		for (SummaryRow row : section.rows()) {
			double figureOf = value.applyAsDouble(row);
			if (row == base || of <= 0 || figureOf <= 0 || !sameMetric(row, base)) {
				continue;
			}
			boolean targetBetter = higherIsBetter == (figureOf > of);
			ratios.append((ratios.length() > 0) ? ", " : "").append(row.target()).append(" ")
				.append(String.format(Locale.ROOT, "%.2fx", figureOf / of))
				.append((figureOf == of) ? "" : targetBetter ? " (" + baseline + " loses)" : " (" + baseline + " wins)");
		}
		md.append(ratios).append(" |\n");
	}

	static double extra(Map<String, Object> extras, String key) {
		return (extras.get(key) instanceof Number n) ? n.doubleValue() : 0;
	}

	private static void fastPath(StringBuilder md, Section section) {
		SummaryRow fixed = section.rows().stream().filter((r) -> r.target().equals(FAST_PATH) && r.value() != 0)
			.findFirst().orElse(null);
		if (fixed == null) {
			return;
		}
		StringBuilder ratios = new StringBuilder();
		for (SummaryRow row : section.rows()) {
			if (FAST_PATH_PEERS.contains(row.target())) {
				ratios.append((ratios.length() > 0) ? ", " : "").append(row.target()).append(" ")
					.append(ratio(row, fixed)).append(verdict(row, fixed, FAST_PATH, section.higherIsBetter()));
			}
		}
		if (ratios.length() > 0) {
			md.append("\nFast path: ").append(FAST_PATH).append(" (no WebFlux) against the servers that answer without "
					+ "a framework: ").append(ratios).append(".\n");
		}
	}

	private static void featureCosts(StringBuilder md, Section section) {
		for (List<String> cost : FEATURE_COSTS) {
			SummaryRow without = row(section, cost.get(0));
			SummaryRow with = row(section, cost.get(1));
			if (without == null || with == null || !sameMetric(with, without)) {
				continue;
			}
			// Rounds are interleaved, so round i of both ran side by side: their ratio is steadier than the medians'.
			List<Double> perRound = new ArrayList<>();
			for (int i = 0; i < Math.min(with.rounds().size(), without.rounds().size()); i++) {
				if (without.rounds().get(i) != 0) {
					perRound.add((with.rounds().get(i) / without.rounds().get(i) - 1) * 100);
				}
			}
			md.append("\nCost of ").append(cost.get(2)).append(": ")
				.append(percent((with.value() / without.value() - 1) * 100)).append(" ").append(section.unit())
				.append(" between the medians; per round ")
				.append(String.join(", ", perRound.stream().map(MarkdownReport::percent).toList()))
				.append(", median ").append(percent(SummaryRow.median(perRound))).append(".\n");
		}
	}

	private static String percent(double value) {
		return String.format(Locale.ROOT, "%+.1f%%", value);
	}

	private static SummaryRow row(Section section, String target) {
		return section.rows().stream().filter((r) -> r.target().equals(target) && r.value() != 0).findFirst()
			.orElse(null);
	}

	private static SummaryRow base(Section section, String baseline) {
		return row(section, baseline);
	}

	private static String ratio(SummaryRow row, SummaryRow base) {
		if (!sameMetric(row, base)) {
			return "n/a (" + row.extras().get("metric") + ")";
		}
		return String.format(Locale.ROOT, "%.2fx", row.value() / base.value());
	}

	private static boolean sameMetric(SummaryRow row, SummaryRow base) {
		return java.util.Objects.equals(row.extras().get("metric"), base.extras().get("metric"));
	}

	private static String verdict(SummaryRow row, SummaryRow base, String baseline, boolean higherIsBetter) {
		if (!sameMetric(row, base) || row.value() == base.value()) {
			return "";
		}
		boolean targetBetter = higherIsBetter == (row.value() > base.value());
		return targetBetter ? " (" + baseline + " loses)" : " (" + baseline + " wins)";
	}

	private static String note(SummaryRow row) {
		StringBuilder note = new StringBuilder(row.note());
		for (String key : List.of("mb_per_s", "heap_b_per_conn", "direct_b_per_conn", "nmt_other_b_per_conn",
				"rss_b_per_conn", "pss_b_per_conn", "rss_mb",
				"closed_loop_errors", "server_cpu_pct", "tick_us_per_req", "alloc_b_per_req", "send_lag_p99_ms",
				"transport")) {
			Object value = row.extras().get(key);
			if (value != null) {
				note.append((note.length() > 0) ? "; " : "").append(key.replace('_', ' ')).append(" ")
					.append((value instanceof Number n) ? number(n.doubleValue()) : value);
			}
		}
		return note.toString().replace("|", "/");
	}

	private static String extra(SummaryRow row, String key) {
		Object value = row.extras().get(key);
		return (value instanceof Number n) ? number(n.doubleValue()) : "";
	}

	private static String optional(Double value) {
		return (value != null) ? String.format(Locale.ROOT, "%.3f", value) : "";
	}

	/** @return {@code value} as the report writes it: thousands separated from 100 up, else one decimal */
	public static String number(double value) {
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, "%.1f", value);
	}

}
