package io.khamsin.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import io.khamsin.benchmark.load.LoadGenerator;
import io.khamsin.benchmark.os.CoreKeeper;
import io.khamsin.benchmark.os.Tools;
import io.khamsin.benchmark.report.Charts;
import io.khamsin.benchmark.report.Environment;
import io.khamsin.benchmark.report.MarkdownReport;
import io.khamsin.benchmark.report.SummaryRow;
import io.khamsin.benchmark.report.ToolAgreement;
import io.khamsin.benchmark.scenario.Progress;
import io.khamsin.benchmark.scenario.RunContext;
import io.khamsin.benchmark.scenario.Scenario;
import io.khamsin.benchmark.scenario.Scenarios;
import io.khamsin.benchmark.scenario.Settings;
import io.khamsin.benchmark.scenario.WarmUp;
import io.khamsin.benchmark.scenario.Wrk;
import io.khamsin.benchmark.target.Payloads;
import io.khamsin.benchmark.target.TargetSpec;
import io.khamsin.benchmark.target.Targets;

/**
 * The campaign runner behind {@code benchmark/bench}. Runs on the load core (the script pins it there) and writes
 * {@code benchmark/results/<yyyy-mm-ddTHHMM>-<host>-<commit>/}. See {@code benchmark/README.md} for the options.
 */
public final class Bench {

	/** The JVM flags every JVM target gets: a fixed heap and the collector the JVM picks on one core anyway. */
	static final List<String> JVM_FLAGS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC");

	private static final String BASELINE = "khamsin";

	private Bench() {
	}

	public static void main(String[] args) throws Exception {
		try {
			run(Options.parse(args));
		}
		catch (MissingToolsException ex) {
			System.err.println("benchmark/bench: " + ex.getMessage());
			System.exit(2);
		}
	}

	/**
	 * Run the campaign {@code options} describe.
	 * @return the run's directory
	 * @throws MissingToolsException before anything runs, when a program the campaign needs is not installed and
	 * {@code --allow-missing} was not given
	 */
	static Path run(Options options) throws IOException {
		Properties built = new Properties();
		if (options.targetsFile != null && Files.exists(options.targetsFile)) {
			try (InputStream in = Files.newInputStream(options.targetsFile)) {
				built.load(in);
			}
		}
		Map<String, String> unavailable = new LinkedHashMap<>();
		List<TargetSpec> targets = Targets.available(built, System.getProperty("java.class.path"), unavailable);
		addVariants(targets, options.variants, unavailable);
		if (options.targets != null) {
			for (String name : options.targets) {
				if (!Targets.ALL.contains(name) && !options.variants.containsKey(name)) {
					throw new IllegalArgumentException("unknown target '" + name + "'; known: " + Targets.ALL
							+ ((options.variants.isEmpty()) ? "" : " and the variants " + options.variants.keySet()));
				}
			}
			targets.removeIf((t) -> !options.targets.contains(t.name()));
			unavailable.keySet().removeIf((name) -> !options.targets.contains(name));
		}
		List<Scenario> scenarios = new ArrayList<>();
		for (String name : options.scenarios) {
			scenarios.add(Scenarios.named(name, options.p99BoundMillis));
		}
		List<String> selected = new ArrayList<>(targets.stream().map(TargetSpec::name).toList());
		selected.addAll(unavailable.keySet());
		List<Tools.Tool> missing = Tools.read(options.toolsFile).missing(options.scenarios, selected);
		List<String> fallbacks = new ArrayList<>();
		for (Tools.Tool tool : missing) {
			if (!options.allowMissing || tool.without() == null) {
				throw new MissingToolsException(Tools.advice(missing)
						+ (options.allowMissing ? "" : "\n(or run with --allow-missing, if what the campaign then "
								+ "loses is said in its report's first lines)"));
			}
			fallbacks.add(tool.program() + " is not installed: " + tool.without() + ".");
		}
		String host = InetAddress.getLocalHost().getHostName().split("\\.")[0];
		String commit = (options.commit != null) ? options.commit : "unknown";
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm"));
		Path runDir = (options.out != null) ? options.out
				: options.resultsDir.resolve(stamp + "-" + host + "-" + commit);
		Files.createDirectories(runDir);
		Settings settings = options.settings;
		// The download files stay out of the results (which are committed): they are regenerated each run.
		Path files = Payloads.writeFiles(Files.createTempDirectory("khamsin-bench-files"));
		try (Progress progress = new Progress(System.out, runDir.resolve("run.log"));
				CoreKeeper keeper = CoreKeeper.start(settings.serverCore());
				LoadGenerator generator = new LoadGenerator()) {
			progress.line("khamsin benchmark -> " + runDir);
			progress.line("scenarios " + options.scenarios + ", targets "
					+ targets.stream().map(TargetSpec::name).toList() + ", " + settings.rounds() + " rounds"
					+ (settings.quick() ? " (quick: " + settings.warmupSeconds() + " s warm-up, "
							+ settings.trialSeconds() + " s trials)" : ""));
			unavailable.forEach((name, why) -> progress.line("not run: " + name + ": " + why));
			Wrk wrk = new Wrk(Wrk.find(), runDir.resolve("wrk"), settings.loadCore());
			RunContext context = new RunContext(settings, generator, wrk, progress, runDir, files, JVM_FLAGS,
					new RunContext.Ports(), keeper);
			Campaign campaign = new Campaign(context, targets, options.maxReruns);
			long started = System.nanoTime();
			for (Scenario scenario : scenarios) {
				campaign.run(scenario);
			}
			long seconds = (System.nanoTime() - started) / 1_000_000_000L;
			write(runDir, options, settings, scenarios, targets, unavailable, campaign, host, commit, seconds, wrk,
					fallbacks);
			progress.line("report: " + runDir.resolve("summary.md") + " (" + seconds / 60 + " min " + seconds % 60 + " s)");
		}
		// The download files and the certificate stay out of the results (which are committed): remade each run.
		try (var stale = Files.walk(files)) {
			for (Path file : stale.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
		if (runDir.toAbsolutePath().getParent().equals(options.resultsDir.toAbsolutePath())) {
			updateLatest(runDir);
		}
		return runDir;
	}

	/** A program the campaign needs is not installed: nothing was run. */
	static final class MissingToolsException extends IllegalStateException {

		MissingToolsException(String message) {
			super(message);
		}

	}

	/**
	 * Put each {@code --variant} right after its base, or say why it cannot run.
	 */
	static void addVariants(List<TargetSpec> targets, Map<String, List<String>> variants,
			Map<String, String> unavailable) {
		variants.forEach((name, spec) -> {
			String baseName = spec.get(0);
			if (!Targets.ALL.contains(baseName)) {
				throw new IllegalArgumentException("variant '" + name + "': unknown base target '" + baseName
						+ "'; known: " + Targets.ALL);
			}
			int at = -1;
			for (int i = 0; i < targets.size(); i++) {
				if (targets.get(i).name().equals(baseName)) {
					at = i;
				}
			}
			if (at < 0) {
				unavailable.put(name, "needs its base " + baseName + ": "
						+ unavailable.getOrDefault(baseName, "not selected"));
				return;
			}
			targets.add(at + 1, Targets.variant(targets.get(at), name, spec.subList(1, spec.size())));
		});
	}

	private static void write(Path runDir, Options options, Settings settings, List<Scenario> scenarios,
			List<TargetSpec> targets, Map<String, String> unavailable, Campaign campaign, String host, String commit,
			long seconds, Wrk wrk, List<String> fallbacks) throws IOException {
		Map<String, Object> run = new LinkedHashMap<>();
		run.put("command", "benchmark/bench " + String.join(" ", options.args));
		run.put("settings", settings);
		run.put("duration_s", seconds);
		run.put("server_core", settings.serverCore());
		run.put("load_core", settings.loadCore());
		run.put("jvm_flags", JVM_FLAGS);
		run.put("targets", targets.stream().map((t) -> Map.of("name", t.name(), "what", t.description())).toList());
		run.put("not_run", unavailable);
		run.put("fallbacks", fallbacks);
		run.put("transports", campaign.transports);
		run.put("closed_loop_tool", wrk.available() ? "wrk -t1 (pinned to the load core)" : "generator closed loop");
		Campaign.JSON.writeValue(runDir.resolve("env.json").toFile(), Environment.describe(host, commit, run,
				classpaths(targets), System.getProperty("java.class.path")));
		Campaign.JSON.writeValue(runDir.resolve("integrity.json").toFile(), campaign.integrity);

		List<SummaryRow> all = new ArrayList<>();
		List<MarkdownReport.Section> sections = new ArrayList<>();
		String baseline = targets.stream().anyMatch((t) -> t.name().equals(BASELINE)) ? BASELINE
				: targets.isEmpty() ? BASELINE : targets.get(0).name();
		for (Scenario scenario : scenarios) {
			List<SummaryRow> rows = campaign.rows(scenario);
			ToolAgreement.annotate(rows, baseline);
			all.addAll(rows);
			Path chart = Charts.draw(runDir.resolve("charts"), scenario.name(), scenario.unit(),
					scenario.higherIsBetter(), rows, baseline);
			Map<String, String> warmUps = new LinkedHashMap<>();
			campaign.warmUps.get(scenario.name()).forEach((target, warmUp) -> {
				if (warmUp.rule() != null) {
					warmUps.put(target, warmUp.describe());
				}
			});
			sections.add(new MarkdownReport.Section(scenario.name(), scenario.figure(), scenario.unit(),
					scenario.higherIsBetter(), rows, campaign.excluded.get(scenario.name()),
					(chart != null) ? "charts/" + chart.getFileName() : null, warmUps,
					campaign.reruns.get(scenario.name()), Scenarios.equalLoad(campaign.measured.get(scenario.name())),
					scenario.headline()));
		}
		Campaign.JSON.writeValue(runDir.resolve("summary.json").toFile(), all);
		List<String> preamble = new ArrayList<>();
		for (String fallback : fallbacks) {
			preamble.add("**Not what a full campaign measures: " + fallback + "**");
			preamble.add("");
		}
		preamble.add("Run `" + run.get("command") + "` on " + host + " at commit " + commit + ", "
				+ LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME).substring(0, 16) + ", " + seconds / 60
				+ " min " + seconds % 60 + " s.");
		preamble.add("");
		preamble.add("- Every target pinned to core " + settings.serverCore() + ", the load (this generator and wrk) to core "
				+ settings.loadCore() + "; targets interleaved in each of " + settings.rounds() + " rounds; medians of the "
				+ "rounds, spread = (max - min) / median. Only the target being measured runs: the others are frozen "
				+ "(SIGSTOP) meanwhile. A target whose rounds spread over " + (int) Campaign.RERUN_SPREAD_PCT
				+ "% has its farthest round run again, up to " + options.maxReruns + " times (each re-run is listed "
				+ "under its scenario; the raw results keep both).");
		preamble.add("- Both cores are kept from halting while measuring, as on bare metal: the generator busy-polls "
				+ "during a run, and an idle-priority spinner (SCHED_IDLE, nice 19) holds the server core. On this "
				+ "virtual machine a halted vCPU takes up to milliseconds to wake, a tail no server can beat.");
		preamble.add("- JVM targets: same JDK (" + System.getProperty("java.runtime.version") + "), flags `"
				+ String.join(" ", JVM_FLAGS) + "`; Netty's leak detector at its default.");
		preamble.add("- Latency: open loop, from the intended send time (coordinated-omission corrected), HdrHistogram. "
				+ "The closed-loop peak (" + run.get("closed_loop_tool") + ") is throughput only.");
		preamble.add(String.format(Locale.ROOT, "- Warm-up: closed-loop load in %.0f s windows until two successive "
				+ "windows agree within %.0f%%, at least %d s for a JVM target (%.0f s for the others) and at most %d s; "
				+ "then open loop at half that rate, for the generator's own compiler. The time each target took is "
				+ "in its scenario's section%s; trials of %s s.", WarmUp.Rule.WINDOW_SECONDS,
				WarmUp.Rule.TOLERANCE * 100, settings.warmupSeconds(), 2 * WarmUp.Rule.WINDOW_SECONDS,
				settings.warmupMaxSeconds(), settings.quick() ? "; this quick check uses less than the 60 s a JVM "
						+ "sharing one core with its JIT needs, so JVM figures may be low" : "",
				settings.trialSeconds()));
		preamble.add("");
		preamble.add("| target | what | I/O transport (read from /proc) |");
		preamble.add("| --- | --- | --- |");
		for (TargetSpec target : targets) {
			preamble.add("| " + target.name() + " | " + target.description().replace("|", "/") + " | "
					+ campaign.transportsOf(target.name()) + " |");
		}
		preamble.add("");
		if (options.p99BoundMillis != 1) {
			preamble.add("- The p99 bound of status and json is " + options.p99BoundMillis + " ms here, not BENCHMARKING.md's "
					+ "1 ms (`--p99-bound-ms`): on this machine no JVM server, a bare Netty server included, keeps p99 "
					+ "within 1 ms at any rate, so 1 ms would rank nothing.");
		}
		if (!baseline.equals(BASELINE)) {
			preamble.add("- khamsin did not run: ratios are to " + baseline + " instead.");
		}
		Files.writeString(runDir.resolve("summary.md"), MarkdownReport.render("khamsin benchmark: " + runDir.getFileName(),
				baseline, preamble, sections, unavailable));
	}

	private static Map<String, String> classpaths(List<TargetSpec> targets) {
		Map<String, String> classpaths = new LinkedHashMap<>();
		targets.stream().filter(TargetSpec::jvm).forEach((t) -> classpaths.put(t.name(), t.classpath()));
		return classpaths;
	}

	/** Point {@code benchmark/results/latest} at the newest run of the results directory. */
	private static void updateLatest(Path runDir) throws IOException {
		Path latest = runDir.toAbsolutePath().getParent().resolve("latest");
		Files.deleteIfExists(latest);
		Files.createSymbolicLink(latest, runDir.getFileName());
	}

	/** The command line. */
	static final class Options {

		List<String> args;

		List<String> scenarios = Scenarios.names();

		List<String> targets;

		Settings settings = Settings.full(3);

		/** The p99 bound of status and json, 1 ms unless {@code --p99-bound-ms} says otherwise. */
		double p99BoundMillis = 1;

		Path out;

		Path resultsDir = Path.of("benchmark/results");

		Path targetsFile;

		String commit;

		/** The programs a campaign needs ({@code benchmark/tools.tsv}). */
		Path toolsFile = Path.of("benchmark", "tools.tsv");

		/** {@code --max-reruns N}: how many times at most a target's farthest round is run again. */
		int maxReruns = Campaign.MAX_RERUNS;

		/** {@code --allow-missing}: run without a missing program where the campaign can, and say what it lost. */
		boolean allowMissing;

		/** {@code --variant NAME=BASE:ARGS}: each variant's base, then its Spring Boot arguments. */
		Map<String, List<String>> variants = new LinkedHashMap<>();

		static Options parse(String[] args) {
			Options options = new Options();
			options.args = Arrays.asList(args);
			Integer rounds = null;
			Integer cpuRate = null;
			Integer warmup = null;
			Integer warmupMax = null;
			Double trialSeconds = null;
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				switch (arg) {
					case "--quick" -> {
						options.settings = Settings.quickCheck();
						options.scenarios = List.of("status");
					}
					case "--scenarios" -> options.scenarios = List.of(args[++i].split(","));
					case "--targets" -> options.targets = List.of(args[++i].split(","));
					case "--rounds" -> rounds = Integer.parseInt(args[++i]);
					case "--out" -> options.out = Path.of(args[++i]);
					case "--results" -> options.resultsDir = Path.of(args[++i]);
					case "--targets-file" -> options.targetsFile = Path.of(args[++i]);
					case "--commit" -> options.commit = args[++i];
					case "--cpu-rate" -> cpuRate = Integer.parseInt(args[++i]);
					case "--warmup" -> warmup = Integer.parseInt(args[++i]);
					case "--warmup-max" -> warmupMax = Integer.parseInt(args[++i]);
					case "--p99-bound-ms" -> options.p99BoundMillis = Double.parseDouble(args[++i]);
					case "--trial-seconds" -> trialSeconds = Double.parseDouble(args[++i]);
					case "--variant" -> options.addVariant(args[++i]);
					case "--tools-file" -> options.toolsFile = Path.of(args[++i]);
					case "--allow-missing" -> options.allowMissing = true;
					case "--max-reruns" -> options.maxReruns = Integer.parseInt(args[++i]);
					default -> throw new IllegalArgumentException("unknown option " + arg);
				}
			}
			Settings s = options.settings;
			if (rounds != null) {
				s = s.withRounds(rounds);
			}
			if (warmup != null) {
				s = s.withWarmup(warmup);
			}
			if (warmupMax != null) {
				s = s.withWarmupMax(warmupMax);
			}
			if (trialSeconds != null) {
				s = s.withTrialSeconds(trialSeconds);
			}
			if (cpuRate != null) {
				s = s.withCpuRate(cpuRate);
			}
			options.settings = s;
			return options;
		}

		/**
		 * Add a variant from {@code NAME=BASE:ARG [ARG...]}, for example
		 * {@code khamsin-epoll=khamsin:--khamsin.transport=epoll}.
		 */
		void addVariant(String definition) {
			int equals = definition.indexOf('=');
			int colon = definition.indexOf(':', equals + 1);
			if (equals <= 0 || colon < 0 || colon == definition.length() - 1) {
				throw new IllegalArgumentException("--variant '" + definition + "': expected NAME=BASE:ARG [ARG...], "
						+ "for example khamsin-epoll=khamsin:--khamsin.transport=epoll");
			}
			List<String> spec = new ArrayList<>();
			spec.add(definition.substring(equals + 1, colon));
			spec.addAll(List.of(definition.substring(colon + 1).trim().split("\\s+")));
			this.variants.put(definition.substring(0, equals), spec);
		}

	}

}
