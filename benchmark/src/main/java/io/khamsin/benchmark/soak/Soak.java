package io.khamsin.benchmark.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The soak's entry point, which {@code benchmark/soak} runs:
 * {@code Soak --tier smoke|extended [--duration 10m] --jar APP.jar --out DIR [--port N] [--workloads h1-churn,...]}. Prints the summary and
 * exits 0 when every gate passed, 1 when one failed, 2 on bad arguments.
 */
public final class Soak {

	private Soak() {
	}

	public static void main(String[] args) throws Exception {
		// The generators share two cores with the server: they must sleep between sends, not spin.
		System.setProperty("khamsin.bench.busy-poll", "false");
		String tier = "smoke";
		Duration duration = null;
		Path jar = null;
		Path out = null;
		int port = 22443;
		Set<String> workloads = Set.of();
		for (int i = 0; i + 1 < args.length; i += 2) {
			switch (args[i]) {
				case "--tier" -> tier = args[i + 1];
				case "--duration" -> duration = parseDuration(args[i + 1]);
				case "--jar" -> jar = Path.of(args[i + 1]);
				case "--out" -> out = Path.of(args[i + 1]);
				case "--port" -> port = Integer.parseInt(args[i + 1]);
				case "--workloads" -> workloads = Set.of(args[i + 1].split(","));
				default -> usage("unknown option " + args[i]);
			}
		}
		if (jar == null || out == null || args.length % 2 != 0) {
			usage("--jar and --out are needed");
		}
		SoakSettings settings = SoakSettings.of(tier, duration, jar, out, port, workloads);
		System.out.printf("soak %s: %d s of load (%d s warm-up) on port %d, results in %s%n", settings.tier(),
				settings.duration().toSeconds(), settings.warmup().toSeconds(), port, out);
		SoakSummary summary = new SoakRun(settings).run();
		Map<String, Object> fields = summary.fields();
		System.out.printf("requests %s, errors %s; RSS %s kB after warm-up, %s kB at the end (%s); fds %s before, "
				+ "%s after%n", fields.get("requests"), fields.get("errors"), fields.get("rss_kb_after_warmup"),
				fields.get("rss_kb_end"), fields.get("rss_end_over_after_warmup"), fields.get("fd_start"),
				fields.get("fd_end"));
		System.out.println(summary.passed() ? "PASS" : "FAIL: " + String.join("; ", summary.failures()));
		System.exit(summary.passed() ? 0 : 1);
	}

	/** @return {@code 90}, {@code 90s}, {@code 10m} or {@code 1h} as a duration */
	static Duration parseDuration(String text) {
		char unit = text.charAt(text.length() - 1);
		if (Character.isDigit(unit)) {
			return Duration.ofSeconds(Long.parseLong(text));
		}
		long value = Long.parseLong(text.substring(0, text.length() - 1));
		return switch (unit) {
			case 's' -> Duration.ofSeconds(value);
			case 'm' -> Duration.ofMinutes(value);
			case 'h' -> Duration.ofHours(value);
			default -> throw new IllegalArgumentException("a duration is 90, 90s, 10m or 1h, not " + text);
		};
	}

	/** Run {@code workload}, an exception that stops it counted as one error. */
	static Workload.Outcome runSafely(Workload workload, Duration duration) {
		try {
			return workload.run(duration);
		}
		catch (Exception ex) {
			return new Workload.Outcome(0, 1, workload.name() + " did not run: " + ex);
		}
	}

	private static void usage(String problem) {
		System.err.println(problem);
		System.err.println("usage: Soak --tier smoke|extended [--duration 10m] --jar APP.jar --out DIR [--port N] [--workloads h1-churn,...]");
		System.exit(2);
	}

}
