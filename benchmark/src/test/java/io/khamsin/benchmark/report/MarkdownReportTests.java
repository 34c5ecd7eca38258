package io.khamsin.benchmark.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownReportTests {

	@Test
	void comparesTheFastPathWithTheServersThatAnswerWithoutAFramework() {
		MarkdownReport.Section section = new MarkdownReport.Section("status", "GET /plaintext", "req/s", true,
				List.of(row("khamsin", 20_000), row("khamsin-fixed", 60_000), row("reactor-netty", 18_000),
						row("netty-raw", 75_000), row("nginx", 30_000)),
				Map.of(), null);

		String report = MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());

		assertThat(report).contains("Fast path: khamsin-fixed (no WebFlux) against the servers that answer without a "
				+ "framework: netty-raw 1.25x (khamsin-fixed loses), nginx 0.50x (khamsin-fixed wins).");
		assertThat(report).contains("| khamsin-fixed | 60,000 req/s | 3.00x (khamsin loses) |");
	}

	@Test
	void saysATargetLeftOutOfAScenarioByDesignWasNotRunRatherThanExcluded() {
		MarkdownReport.Section section = new MarkdownReport.Section("idle-10k", "idle", "B/conn", false,
				List.of(row("khamsin", 2_400)), Map.of("khamsin-fixed", "measured only in status", "tomcat",
						"integrity check: status 500"), null);

		String report = MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());

		assertThat(report).contains("| khamsin-fixed | not run |").contains("| tomcat | excluded |")
			.doesNotContain("Fast path");
	}

	@Test
	void pricesTheFiguresAndTheAccessLogFromTheRoundsRunSideBySide() {
		MarkdownReport.Section section = new MarkdownReport.Section("cpu-fixed-rate", "CPU", "us/req", false,
				List.of(rounds("khamsin", 41, 40, 50), rounds("khamsin-no-metrics", 40, 40, 48),
						rounds("khamsin-access-log", 45, 42, 55)),
				Map.of(), null);

		String report = MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of());

		assertThat(report).contains("Cost of khamsin's own figures (khamsin against khamsin-no-metrics): +2.5% us/req "
				+ "between the medians; per round +2.5%, +0.0%, +4.2%, median +2.5%.");
		assertThat(report).contains("Cost of the access log (khamsin-access-log against khamsin): +9.8% us/req "
				+ "between the medians; per round +9.8%, +5.0%, +10.0%, median +9.8%.");
	}

	@Test
	void leavesOutTheCostOfAFeatureWhoseVariantDidNotRun() {
		MarkdownReport.Section section = new MarkdownReport.Section("status", "GET /plaintext", "req/s", true,
				List.of(row("khamsin", 20_000), row("reactor-netty", 18_000)), Map.of(), null);

		assertThat(MarkdownReport.render("run", "khamsin", List.of(), List.of(section), Map.of()))
			.doesNotContain("Cost of");
	}

	private static SummaryRow rounds(String target, double... values) {
		List<Double> list = java.util.Arrays.stream(values).boxed().toList();
		return SummaryRow.of("cpu-fixed-rate", target, "us/req", false, list, list.stream().map((v) -> 0.1).toList(),
				list.stream().map((v) -> 0.5).toList(), list.stream().map((v) -> "").toList(),
				list.stream().map((v) -> Map.<String, Object>of()).toList());
	}

	private static SummaryRow row(String target, double value) {
		return SummaryRow.of("status", target, "req/s", true, List.of(value), List.of(0.1), List.of(0.5), List.of(""),
				List.of(Map.of()));
	}

}
