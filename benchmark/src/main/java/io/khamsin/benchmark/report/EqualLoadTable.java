package io.khamsin.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency of every target at the same fixed rates (a ladder below the slowest target's peak), open loop and
 * corrected for coordinated omission: p50 / p99 / p99.9 per rate, and each target's p99 at the middle rate against
 * the baseline's. On a machine where no target holds a 1 ms p99 at any rate, this still compares their tails.
 */
final class EqualLoadTable {

	private EqualLoadTable() {
	}

	/** @return the key of the middle rate of {@code rates} (the one the headline compares) */
	static String middle(Map<String, Double> rates) {
		List<String> keys = new ArrayList<>(rates.keySet());
		return keys.get(keys.size() / 2);
	}

	static void render(StringBuilder md, MarkdownReport.Section section, String baseline) {
		Map<String, Double> rates = section.equalLoad();
		if (rates.isEmpty()) {
			return;
		}
		String middle = middle(rates);
		md.append("\nLatency at equal load: every target at the same fixed rates (fractions of the slowest target's "
				+ "warm-up rate), open loop; p50 / p99 / p99.9 in ms, medians of the rounds.\n\n");
		md.append("| target |");
		rates.values().forEach((rate) -> md.append(String.format(Locale.ROOT, " %,.0f req/s |", rate)));
		md.append(String.format(Locale.ROOT, " p99 at %,.0f req/s vs %s |\n", rates.get(middle), baseline));
		md.append("| --- |").append(" ---: |".repeat(rates.size())).append(" ---: |\n");
		SummaryRow base = section.rows().stream().filter((r) -> r.target().equals(baseline)).findFirst().orElse(null);
		double baseP99 = (base != null) ? MarkdownReport.extra(base.extras(), middle + "_p99_ms") : 0;
		for (SummaryRow row : section.rows()) {
			if (!row.extras().containsKey(middle + "_p99_ms")) {
				continue;
			}
			md.append("| ").append(row.target()).append(" |");
			for (Map.Entry<String, Double> rung : rates.entrySet()) {
				String key = rung.getKey();
				double rate = rung.getValue();
				md.append(String.format(Locale.ROOT, " %.3f / %.3f / %.3f", MarkdownReport.extra(row.extras(),
						key + "_p50_ms"), MarkdownReport.extra(row.extras(), key + "_p99_ms"),
						MarkdownReport.extra(row.extras(), key + "_p999_ms")));
				double errors = MarkdownReport.extra(row.extras(), key + "_errors");
				double achieved = MarkdownReport.extra(row.extras(), key + "_achieved");
				if (errors > 0) {
					md.append(String.format(Locale.ROOT, " (%,.0f errors)", errors));
				}
				if (achieved < 0.9 * rate) {
					md.append(String.format(Locale.ROOT, " (achieved %,.0f)", achieved));
				}
				md.append(" |");
			}
			double p99 = MarkdownReport.extra(row.extras(), middle + "_p99_ms");
			md.append((row == base) ? " 1.00" : (baseP99 > 0 && p99 > 0)
					? String.format(Locale.ROOT, " %.2fx%s", p99 / baseP99, (p99 > baseP99) ? " (" + baseline
							+ " wins)" : (p99 < baseP99) ? " (" + baseline + " loses)" : "") : "").append(" |\n");
		}
	}

}
