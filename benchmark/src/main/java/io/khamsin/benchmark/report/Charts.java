package io.khamsin.benchmark.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.khamsin.benchmark.os.Tools;

/**
 * One chart per scenario with gnuplot: a bar per target, relative to the baseline (khamsin) = 100, losses beside
 * wins, the direction of "better" in the title. Written as SVG and PNG next to the gnuplot script and its data, so
 * a chart can be redrawn by hand.
 */
public final class Charts {

	private Charts() {
	}

	/** @return whether gnuplot is installed */
	public static boolean available() {
		return Tools.locate("gnuplot").isPresent();
	}

	/**
	 * Draw the chart of one scenario.
	 * @param dir the charts directory
	 * @param scenario the scenario name
	 * @param unit its unit
	 * @param higherIsBetter its direction
	 * @param rows the scenario's rows, in report order
	 * @param baseline the target at 100
	 * @return the PNG, or {@code null} when gnuplot is absent or failed (the reason goes to {@code <scenario>.log})
	 */
	public static Path draw(Path dir, String scenario, String unit, boolean higherIsBetter, List<SummaryRow> rows,
			String baseline) throws IOException {
		SummaryRow base = rows.stream().filter((r) -> r.target().equals(baseline)).findFirst().orElse(null);
		if (base == null || base.value() == 0 || !available()) {
			return null;
		}
		Files.createDirectories(dir);
		StringBuilder data = new StringBuilder("# target relative value spread_pct\n");
		for (SummaryRow row : rows) {
			if (!java.util.Objects.equals(row.extras().get("metric"), base.extras().get("metric"))) {
				// Another measure (nginx's PSS beside a JVM's live heap) has no bar on the same scale.
				continue;
			}
			double relative = row.value() / base.value() * 100;
			data.append(String.format(Locale.ROOT, "\"%s\" %.1f %.3f %.1f%n", row.target(), relative, row.value(),
					row.spreadPct()));
		}
		Path dat = dir.resolve(scenario + ".dat");
		Files.writeString(dat, data);
		String title = String.format("%s: %s relative to %s = 100 (%s is better)", scenario, unit, baseline,
				higherIsBetter ? "higher" : "lower");
		String script = """
				set title "%1$s" noenhanced
				set style data histograms
				set style fill solid 0.8 border -1
				set boxwidth 0.7
				set yrange [0:*]
				set ylabel "%% of %2$s"
				set grid ytics
				set key off
				set xtics noenhanced rotate by -20
				set arrow from graph 0, first 100 to graph 1, first 100 nohead dashtype 2 lc rgb "#444444"
				plot "%3$s" using 2:xtic(1) lc rgb "#c8553d", \\
				     "" using 0:2:(sprintf("%%.0f", $2)) with labels offset 0,0.7 notitle
				""".formatted(title, baseline, dat.getFileName());
		Path png = dir.resolve(scenario + ".png");
		Path gp = dir.resolve(scenario + ".gp");
		Files.writeString(gp, "set terminal pngcairo size 900,500\nset output \"" + png.getFileName() + "\"\n" + script
				+ "set terminal svg size 900,500\nset output \"" + scenario + ".svg\"\nreplot\n");
		try {
			Process process = new ProcessBuilder(Tools.locate("gnuplot").orElseThrow().toString(), gp.getFileName().toString()).directory(dir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve(scenario + ".log").toFile())
				.start();
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				return null;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		return png;
	}

}
