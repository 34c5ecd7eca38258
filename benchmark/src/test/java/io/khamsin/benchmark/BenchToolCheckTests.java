package io.khamsin.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A campaign on a machine that lacks a program it needs: {@code benchmark/bench} installs it as root, or stops
 * with the list before it builds or runs anything; the campaign runner refuses too, unless told to run without it,
 * and then says in the report's first lines what the campaign lost.
 */
class BenchToolCheckTests {

	private static final Path SCRIPT = Path.of("bench").toAbsolutePath();

	@Test
	void withoutWrkAndNginxTheQuickCheckStopsWithTheListAndTheInstallCommand(@TempDir Path bin) throws Exception {
		link(bin, "taskset", "gnuplot");

		Result result = bench(Map.of("KHAMSIN_BENCH_TOOLS_PATH", bin.toString(), "KHAMSIN_BENCH_INSTALL", "no"),
				"--quick");

		assertThat(result.exit()).isEqualTo(1);
		assertThat(result.output()).contains("this campaign needs programs that are not installed:",
				"  wrk (Debian package wrk)", "  nginx (Debian package nginx)",
				"install them with: apt-get install nginx wrk").doesNotContain("gnuplot (").doesNotContain("building");
	}

	@Test
	void asRootTheMissingProgramsAreInstalledWithAptGetAndTheCheckPasses(@TempDir Path dir) throws Exception {
		Path bin = Files.createDirectories(dir.resolve("bin"));
		link(bin, "taskset", "gnuplot");
		Path calls = dir.resolve("apt-get.calls");
		// Stands in for apt-get: records how it was called and "installs" each program of the packages it was given.
		Path apt = dir.resolve("apt-get");
		Files.writeString(apt, "#!/bin/sh\necho \"$@\" >> " + calls + "\nfor p in \"$@\"; do case $p in wrk|nginx) "
				+ "printf '#!/bin/sh\\n' > " + bin + "/$p; chmod +x " + bin + "/$p;; esac; done\n");
		Files.setPosixFilePermissions(apt, PosixFilePermissions.fromString("rwxr-xr-x"));

		Result result = bench(Map.of("KHAMSIN_BENCH_TOOLS_PATH", bin.toString(), "KHAMSIN_BENCH_APT_GET",
				apt.toString()), "--quick", "--check-tools");

		if (!isRoot()) {
			assertThat(result.exit()).isEqualTo(1);
			return;
		}
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(Files.readAllLines(calls)).containsExactly("update -q",
				"install -y -q --no-install-recommends nginx wrk");
		assertThat(result.output()).contains("installing what this campaign needs: nginx wrk",
				"every program this campaign needs is installed");
	}

	@Test
	void onlyWhatTheChosenScenariosAndTargetsRunIsNeeded(@TempDir Path bin) throws Exception {
		link(bin, "taskset", "gnuplot");

		Result result = bench(Map.of("KHAMSIN_BENCH_TOOLS_PATH", bin.toString(), "KHAMSIN_BENCH_INSTALL", "no"),
				"--scenarios", "startup,memory-at-rest", "--targets", "khamsin,reactor-netty", "--check-tools");

		assertThat(result.exit()).as(result.output()).isZero();
	}

	@Test
	void theCampaignRunnerRefusesBeforeItCreatesARunDirectory(@TempDir Path dir) throws Exception {
		Path tools = table(dir, "no-such-program-khamsin\tno-such-package\tall\tno charts");
		Path results = dir.resolve("results");

		assertThatThrownBy(() -> Bench.run(Bench.Options.parse(new String[] { "--scenarios", "startup", "--targets",
				"khamsin", "--tools-file", tools.toString(), "--results", results.toString() })))
			.isInstanceOf(Bench.MissingToolsException.class)
			.hasMessageContaining("  no-such-program-khamsin (Debian package no-such-package, needed by all)")
			.hasMessageContaining("apt-get install no-such-package")
			.hasMessageContaining("--allow-missing");
		assertThat(results).doesNotExist();
	}

	@Test
	void runWithoutAMissingProgramTheReportSaysWhatTheCampaignLostFirst(@TempDir Path dir) throws Exception {
		Path tools = table(dir, "no-such-program-khamsin\tno-such-package\tall\tno charts");

		Path run = Bench.run(Bench.Options.parse(new String[] { "--scenarios", "startup", "--targets", "khamsin",
				"--tools-file", tools.toString(), "--out", dir.resolve("run").toString(), "--allow-missing" }));

		List<String> summary = Files.readAllLines(run.resolve("summary.md"));
		assertThat(summary.get(2)).isEqualTo("**Not what a full campaign measures: no-such-program-khamsin is not "
				+ "installed: no charts.**");
		assertThat(run.resolve("env.json")).content().contains("no-such-program-khamsin is not installed");
	}

	@Test
	void aProgramNoCampaignCanDoWithoutIsRefusedEvenWhenAllowedMissing(@TempDir Path dir) throws Exception {
		Path tools = table(dir, "no-such-program-khamsin\tno-such-package\tall\t-");

		assertThatThrownBy(() -> Bench.run(Bench.Options.parse(new String[] { "--scenarios", "startup", "--targets",
				"khamsin", "--tools-file", tools.toString(), "--out", dir.resolve("run").toString(),
				"--allow-missing" })))
			.isInstanceOf(Bench.MissingToolsException.class);
	}

	private static Path table(Path dir, String line) throws IOException {
		return Files.writeString(dir.resolve("tools.tsv"), "# test\n" + line + "\n");
	}

	private static void link(Path bin, String... programs) throws IOException {
		for (String program : programs) {
			Path file = bin.resolve(program);
			Files.writeString(file, "#!/bin/sh\nexit 0\n");
			Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
	}

	private static boolean isRoot() throws Exception {
		Process id = new ProcessBuilder("id", "-u").start();
		return new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().equals("0");
	}

	private static Result bench(Map<String, String> env, String... args) throws Exception {
		List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().putAll(env);
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), output);
	}

	private record Result(int exit, String output) {

	}

}
