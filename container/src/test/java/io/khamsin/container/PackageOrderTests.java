package io.khamsin.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's packages keep the order the root package-info states: each package refers only to packages of a
 * lower rank, so that no two packages import each other, directly or around a circle. Every reference counts, an
 * import or a name written out in code; comments and strings do not.
 */
class PackageOrderTests {

	private static final Path SOURCES = Path.of("src", "main", "java", "io", "khamsin", "container");

	private static final Pattern REFERENCE = Pattern.compile("\\bio\\.khamsin\\.container((?:\\.[a-z][a-z0-9_]*)*)\\.[A-Z]");

	private static final Pattern ORDER = Pattern.compile("Package order:(.*?)(?:\\n \\* <p>|\\*/)", Pattern.DOTALL);

	@Test
	void everyPackageRefersOnlyToPackagesBelowItInTheStatedOrder() throws IOException {
		Map<String, Integer> ranks = statedOrder();
		Map<String, Set<String>> violations = new TreeMap<>();
		for (Map.Entry<String, Set<String>> entry : references().entrySet()) {
			String from = entry.getKey();
			for (String to : entry.getValue()) {
				if (ranks.get(to) <= ranks.get(from)) {
					violations.computeIfAbsent(from, (key) -> new TreeSet<>()).add(to);
				}
			}
		}
		assertThat(violations).as("references to a package of the same or a higher rank, by package (order: %s)",
				ranks).isEmpty();
	}

	@Test
	void theStatedOrderNamesEveryPackageOnce() throws IOException {
		Map<String, Integer> ranks = statedOrder();
		assertThat(new TreeSet<>(ranks.keySet())).isEqualTo(new TreeSet<>(packages()));
	}

	@Test
	void aReferenceAgainstTheOrderIsFound() {
		String source = "package io.khamsin.container.guard;\n/** {@link io.khamsin.container.http1.Http1Initializer} */\n"
				+ "import io.khamsin.container.metrics.ReactorMetrics;\nclass A { String s = \"io.khamsin.container.tls.X\";"
				+ " io.khamsin.container.cache.Lookup lookup; }\n";
		assertThat(referencedPackages(source)).containsExactlyInAnyOrder("metrics", "cache");
	}

	/** @return each package's rank, {@code 0} for the root, as the root package-info states them */
	private static Map<String, Integer> statedOrder() throws IOException {
		String info = Files.readString(SOURCES.resolve("package-info.java"), StandardCharsets.UTF_8);
		Matcher order = ORDER.matcher(info);
		assertThat(order.find()).as("a line 'Package order: ...' in the root package-info").isTrue();
		Map<String, Integer> ranks = new LinkedHashMap<>();
		String[] levels = order.group(1).replace("*", " ").split("->");
		for (int rank = 0; rank < levels.length; rank++) {
			for (String name : levels[rank].split(",")) {
				String pkg = name.strip();
				assertThat(ranks.put(pkg.equals("(root)") ? "" : pkg, rank)).as("%s named twice", pkg).isNull();
			}
		}
		return ranks;
	}

	private static List<String> packages() throws IOException {
		List<String> packages = new ArrayList<>();
		try (Stream<Path> dirs = Files.walk(SOURCES)) {
			dirs.filter((dir) -> Files.exists(dir.resolve("package-info.java")))
				.forEach((dir) -> packages.add(SOURCES.relativize(dir).toString().replace('/', '.')));
		}
		return packages;
	}

	private static Map<String, Set<String>> references() throws IOException {
		Map<String, Set<String>> references = new TreeMap<>();
		try (Stream<Path> files = Files.walk(SOURCES)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String pkg = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
				Set<String> targets = references.computeIfAbsent(pkg, (key) -> new TreeSet<>());
				referencedPackages(Files.readString(file, StandardCharsets.UTF_8)).stream()
					.filter((target) -> !target.equals(pkg))
					.forEach(targets::add);
			}
		}
		return references;
	}

	/** @return the engine's packages a source refers to, relative to the root ({@code ""} for the root) */
	static Set<String> referencedPackages(String source) {
		String code = source.replaceAll("(?s)/\\*.*?\\*/", " ")
			.replaceAll("//[^\\n]*", " ")
			.replaceAll("\"(?:[^\"\\\\\\n]|\\\\.)*\"", "\"\"")
			.replaceAll("(?m)^package [^;]+;", "");
		Set<String> packages = new TreeSet<>();
		Matcher reference = REFERENCE.matcher(code);
		while (reference.find()) {
			String pkg = reference.group(1);
			packages.add(pkg.isEmpty() ? "" : pkg.substring(1));
		}
		return packages;
	}

}
