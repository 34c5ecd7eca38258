package io.khamsin.benchmark.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the report of a headline scenario (status, json) says beside the p99-bounded rate: the closed-loop peak, the
 * latency of every target at equal load, whether wrk and the generator agree, each warm-up and each re-run.
 */
class HeadlineReportTests {

	@Test
	void theHeadlineGivesTheClosedLoopPeakEvenWhenNoRateMetTheBound() {
		String report = render(List.of(row("khamsin", 0, peaks(48_000, 47_000)),
				row("reactor-netty-iouring", 7_500, peaks(38_400, 37_600))));

		assertThat(report).contains("| status | closed-loop peak (wrk) | 48,000 req/s | reactor-netty-iouring 0.80x "
				+ "(khamsin wins) |");
		assertThat(report).contains("| status | open loop, within the p99 bound | n/a |  |");
	}

	@Test
	void eachTargetsRatioByWrkIsHeldAgainstItsRatioByTheGenerator() {
		List<SummaryRow> rows = List.of(row("khamsin", 0, peaks(48_000, 47_000)),
				row("reactor-netty", 0, peaks(31_200, 30_550)), row("nginx", 0, peaks(72_000, 52_000)));

		ToolAgreement.annotate(rows, "khamsin");

		assertThat(rows.get(1).extras()).containsEntry("closed_loop_ratio_wrk", 0.65)
			.containsEntry("closed_loop_ratio_generator", 0.65).containsEntry("tools_disagree", false);
		assertThat(rows.get(2).extras()).containsEntry("tools_disagreement_pct", 35.6)
			.containsEntry("tools_disagree", true);
		assertThat(render(rows)).contains("| nginx | 72,000 | 52,000 | 1.50x | 1.11x | 35.6% ⚠ over 10% |");
	}

	@Test
	void latencyAtEqualLoadIsComparedAtTheMiddleRate() {
		Map<String, Object> khamsin = peaks(48_000, 47_000);
		khamsin.putAll(rung("equal_load_25", 2_700, 0.1, 0.4, 1.2));
		khamsin.putAll(rung("equal_load_50", 5_500, 0.12, 0.5, 1.5));
		khamsin.putAll(rung("equal_load_75", 8_200, 0.15, 0.9, 2.5));
		Map<String, Object> tomcat = peaks(10_900, 10_700);
		tomcat.putAll(rung("equal_load_25", 2_700, 0.2, 1.0, 3.0));
		tomcat.putAll(rung("equal_load_50", 5_500, 0.3, 2.0, 6.0));
		tomcat.putAll(rung("equal_load_75", 6_000, 2.0, 40.0, 80.0));

		String report = render(List.of(row("khamsin", 0, khamsin), row("tomcat", 0, tomcat)));

		assertThat(report).contains("| status | p99 at equal load, 5,500 req/s | 0.5 ms | tomcat 4.00x (khamsin wins) |");
		assertThat(report).contains("| target | 2,700 req/s | 5,500 req/s | 8,200 req/s | p99 at 5,500 req/s vs khamsin |");
		assertThat(report).contains("| tomcat | 0.200 / 1.000 / 3.000 | 0.300 / 2.000 / 6.000 | 2.000 / 40.000 / "
				+ "80.000 (achieved 6,000) | 4.00x (khamsin wins) |");
	}

	@Test
	void eachWarmUpAndEachReRunIsSaidUnderItsScenario() {
		MarkdownReport.Section section = new MarkdownReport.Section("status", "GET /plaintext", "req/s", true,
				List.of(row("khamsin", 0, peaks(48_000, 47_000))), Map.of(), null,
				Map.of("khamsin", "65 s, steady (43,000 then 44,000 req/s)"),
				Map.of("khamsin", List.of("round 2: 31,000, then 47,500")), Map.of());

		String report = MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());

		assertThat(report).contains("Warm-up: khamsin 65 s, steady (43,000 then 44,000 req/s).");
		assertThat(report).contains("Run again because the rounds spread too far (the later figure stands): khamsin "
				+ "round 2: 31,000, then 47,500.");
	}

	@Test
	void aRateMeasuredInClosedLoopIsNamedSoInTheHeadline() {
		MarkdownReport.Section section = new MarkdownReport.Section("h2-streams", "GET /plaintext over h2c", "req/s",
				true, List.of(row("khamsin", 9_000, Map.of()), row("nginx", 54_000, Map.of())), Map.of(), null,
				Map.of(), Map.of(), Map.of(), "closed loop (h2load)");

		String report = MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());

		assertThat(report).contains("| h2-streams | closed loop (h2load) | 9,000 req/s |")
			.doesNotContain("within the p99 bound");
	}

	private static String render(List<SummaryRow> rows) {
		ToolAgreement.annotate(rows, "khamsin");
		Map<String, Double> rates = new LinkedHashMap<>();
		if (rows.get(0).extras().containsKey("equal_load_25_p99_ms")) {
			rates.put("equal_load_25", 2_700.0);
			rates.put("equal_load_50", 5_500.0);
			rates.put("equal_load_75", 8_200.0);
		}
		MarkdownReport.Section section = new MarkdownReport.Section("status", "GET /plaintext", "req/s", true, rows,
				Map.of(), null, Map.of(), Map.of(), rates);
		return MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());
	}

	private static Map<String, Object> peaks(long wrk, long generator) {
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("closed_loop_peak", wrk);
		extras.put("closed_loop_peak_generator", generator);
		return extras;
	}

	private static Map<String, Object> rung(String key, double achieved, double p50, double p99, double p999) {
		return Map.of(key + "_achieved", achieved, key + "_p50_ms", p50, key + "_p99_ms", p99, key + "_p999_ms", p999,
				key + "_errors", 0L);
	}

	private static SummaryRow row(String target, double value, Map<String, Object> extras) {
		return SummaryRow.of("status", target, "req/s", true, List.of(value), List.of(0.1), List.of(0.5), List.of(""),
				List.of(extras));
	}

}
