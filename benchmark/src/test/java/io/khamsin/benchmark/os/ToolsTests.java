package io.khamsin.benchmark.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ToolsTests {

	private static final Path TABLE = Path.of("tools.tsv");

	@Test
	void aCampaignNeedsWhatItsScenariosAndTargetsRun(@TempDir Path bin) throws IOException {
		executable(bin, "taskset");
		Tools tools = new Tools(tools(), List.of(bin));

		assertThat(tools.missing(List.of("status", "json"), List.of("khamsin", "nginx")))
			.extracting(Tools.Tool::program).containsExactly("wrk", "gnuplot", "nginx");
		assertThat(tools.missing(List.of("startup"), List.of("khamsin"))).extracting(Tools.Tool::program)
			.containsExactly("gnuplot");
		assertThat(tools.missing(List.of("h2-streams-tls"), List.of("khamsin"))).extracting(Tools.Tool::program)
			.containsExactly("gnuplot", "h2load", "openssl", "curl");
	}

	@Test
	void theNgtcp2ClientIsNeededByTheHttp3ScenarioItDrivesOnly(@TempDir Path bin) throws IOException {
		executable(bin, "taskset");
		executable(bin, "gnuplot");
		Tools tools = new Tools(tools(), List.of(bin));

		assertThat(tools.missing(List.of("h3-ngtcp2"), List.of("khamsin"))).singleElement()
			.extracting(Tools.Tool::program, Tools.Tool::debianPackage, Tools.Tool::without)
			.containsExactly("gtlsclient", "ngtcp2-client", null);
		assertThat(tools.missing(List.of("h3"), List.of("khamsin"))).isEmpty();
	}

	@Test
	void aProgramFoundOnTheSearchPathIsNotMissing(@TempDir Path bin) throws IOException {
		for (String program : List.of("taskset", "wrk", "gnuplot", "nginx")) {
			executable(bin, program);
		}
		Tools tools = new Tools(tools(), List.of(Path.of("/nonexistent"), bin));

		assertThat(tools.missing(List.of("status"), List.of("nginx"))).isEmpty();
		assertThat(tools.find("wrk")).contains(bin.resolve("wrk"));
	}

	@Test
	void theAdviceNamesEachProgramItsPackageWhatNeedsItAndOneInstallCommand(@TempDir Path bin) {
		Tools tools = new Tools(tools(), List.of(bin));

		String advice = Tools.advice(tools.missing(List.of("status"), List.of("nginx")));

		assertThat(advice).contains("  wrk (Debian package wrk, needed by ").contains("  nginx (Debian package nginx, "
				+ "needed by target:nginx)").contains("install them with: apt-get install util-linux wrk gnuplot-nox nginx");
	}

	@Test
	void whatACampaignLosesWithoutAProgramIsInTheTable() {
		assertThat(tools()).filteredOn((tool) -> tool.program().equals("wrk")).singleElement()
			.extracting(Tools.Tool::without).asString().contains("instead of wrk");
		assertThat(tools()).filteredOn((tool) -> tool.program().equals("taskset")).singleElement()
			.extracting(Tools.Tool::without).isNull();
	}

	@Test
	void nonRootSearchPathsStillFindTheSystemDirectories() {
		assertThat(Tools.searchPath(null, "/usr/bin:/bin")).containsExactly(Path.of("/usr/bin"), Path.of("/bin"),
				Path.of("/usr/local/sbin"), Path.of("/usr/sbin"), Path.of("/sbin"));
		assertThat(Tools.searchPath("/opt/tools", "/usr/bin")).containsExactly(Path.of("/opt/tools"));
	}

	/** Every program of the instrument's table. */
	private static List<Tools.Tool> tools() {
		return Tools.read(TABLE).tools();
	}

	static void executable(Path dir, String name) throws IOException {
		Path file = dir.resolve(name);
		Files.writeString(file, "#!/bin/sh\nexit 0\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

}
