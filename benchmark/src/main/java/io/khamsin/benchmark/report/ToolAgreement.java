package io.khamsin.benchmark.report;

import java.util.List;
import java.util.Locale;

/**
 * Whether wrk and this instrument's own generator rank the targets alike: in the headline scenarios every round takes
 * the closed-loop peak with both tools, and each target's ratio to the baseline by one tool is held against its
 * ratio by the other. A disagreement over {@link #FLAG_PCT} is flagged: one tool is then limited by something the
 * other is not (most often its own core), and the ratios of that row are a lower bound at best.
 */
public final class ToolAgreement {

	/** A disagreement between the two tools' ratios over this, in percent, is flagged. */
	public static final double FLAG_PCT = 10;

	private ToolAgreement() {
	}

	/**
	 * Add each row's ratio to {@code baseline} by each tool, and their disagreement, to its extras
	 * ({@code closed_loop_ratio_wrk}, {@code closed_loop_ratio_generator}, {@code tools_disagreement_pct},
	 * {@code tools_disagree}); rows without both peaks are left alone.
	 */
	public static void annotate(List<SummaryRow> rows, String baseline) {
		SummaryRow base = rows.stream().filter((r) -> r.target().equals(baseline)).findFirst().orElse(null);
		if (base == null || peak(base, "closed_loop_peak") <= 0 || peak(base, "closed_loop_peak_generator") <= 0) {
			return;
		}
		for (SummaryRow row : rows) {
			double wrk = peak(row, "closed_loop_peak");
			double own = peak(row, "closed_loop_peak_generator");
			if (row == base || wrk <= 0 || own <= 0) {
				continue;
			}
			double byWrk = wrk / peak(base, "closed_loop_peak");
			double byGenerator = own / peak(base, "closed_loop_peak_generator");
			double disagreement = Math.abs(byWrk / byGenerator - 1) * 100;
			row.extras().put("closed_loop_ratio_wrk", round3(byWrk));
			row.extras().put("closed_loop_ratio_generator", round3(byGenerator));
			row.extras().put("tools_disagreement_pct", Math.round(disagreement * 10) / 10.0);
			row.extras().put("tools_disagree", disagreement > FLAG_PCT);
		}
	}

	/** Write the section's comparison of the two tools, when its rows have one. */
	static void render(StringBuilder md, List<SummaryRow> rows, String baseline) {
		if (rows.stream().noneMatch((r) -> r.extras().containsKey("closed_loop_ratio_wrk"))) {
			return;
		}
		md.append("\nClosed-loop peak by both tools (wrk -t1 and this instrument's generator, 64 connections each, back "
				+ "to back in every round), and each target's ratio to ").append(baseline).append(" by each:\n\n");
		md.append("| target | wrk req/s | generator req/s | ratio by wrk | ratio by generator | disagreement |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
		for (SummaryRow row : rows) {
			if (peak(row, "closed_loop_peak_generator") <= 0) {
				continue;
			}
			Object disagreement = row.extras().get("tools_disagreement_pct");
			md.append("| ").append(row.target()).append(" | ")
				.append(MarkdownReport.number(peak(row, "closed_loop_peak"))).append(" | ")
				.append(MarkdownReport.number(peak(row, "closed_loop_peak_generator"))).append(" | ")
				.append(ratio(row, "closed_loop_ratio_wrk")).append(" | ")
				.append(ratio(row, "closed_loop_ratio_generator")).append(" | ")
				.append((disagreement != null) ? String.format(Locale.ROOT, "%.1f%%", (Double) disagreement) : "")
				.append(Boolean.TRUE.equals(row.extras().get("tools_disagree")) ? " ⚠ over "
						+ (int) FLAG_PCT + "%" : "")
				.append(" |\n");
		}
	}

	private static String ratio(SummaryRow row, String key) {
		return (row.extras().get(key) instanceof Number n) ? String.format(Locale.ROOT, "%.2fx", n.doubleValue())
				: "1.00";
	}

	private static double peak(SummaryRow row, String key) {
		return (row.extras().get(key) instanceof Number n) ? n.doubleValue() : 0;
	}

	private static double round3(double value) {
		return Math.round(value * 1000) / 1000.0;
	}

}
