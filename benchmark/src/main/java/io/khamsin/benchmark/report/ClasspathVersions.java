package io.khamsin.benchmark.report;

import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versions of libraries on a classpath, read from the names of its jars as Maven lays them out
 * ({@code <artifactId>-<version>[-<classifier>].jar}): what a target really runs on, whatever the benchmark's own
 * classpath holds.
 */
final class ClasspathVersions {

	/** The artifacts whose versions env.json records for each target, by the name env.json gives them. */
	static final Map<String, String> ARTIFACTS = artifacts();

	private static final Pattern VERSION = Pattern.compile("(\\d+(?:\\.[0-9A-Za-z]+)*(?:-SNAPSHOT)?)(?:-[A-Za-z][\\w.-]*)?");

	private final List<String> jars;

	ClasspathVersions(String classpath) {
		this.jars = (classpath == null || classpath.isBlank()) ? List.of()
				: List.of(classpath.split(File.pathSeparator)).stream()
					.filter((entry) -> entry.endsWith(".jar"))
					.map((entry) -> Path.of(entry).getFileName().toString())
					.toList();
	}

	private static Map<String, String> artifacts() {
		Map<String, String> artifacts = new LinkedHashMap<>();
		artifacts.put("netty", "netty-common");
		artifacts.put("spring-boot", "spring-boot");
		artifacts.put("spring-webflux", "spring-webflux");
		artifacts.put("reactor-netty", "reactor-netty-http");
		artifacts.put("tomcat", "tomcat-embed-core");
		artifacts.put("jetty", "jetty-server");
		artifacts.put("vertx", "vertx-core");
		artifacts.put("hdrhistogram", "HdrHistogram");
		return artifacts;
	}

	/** @return the version of {@code artifactId} on the classpath, if a jar of it is there */
	Optional<String> version(String artifactId) {
		String prefix = artifactId + "-";
		for (String jar : this.jars) {
			if (jar.startsWith(prefix)) {
				Matcher matcher = VERSION.matcher(jar.substring(prefix.length(), jar.length() - ".jar".length()));
				if (matcher.matches()) {
					return Optional.of(matcher.group(1));
				}
			}
		}
		return Optional.empty();
	}

	/** @return the version of each artifact of {@link #ARTIFACTS} found on the classpath, by its env.json name */
	Map<String, String> known() {
		Map<String, String> versions = new LinkedHashMap<>();
		ARTIFACTS.forEach((name, artifactId) -> version(artifactId).ifPresent((v) -> versions.put(name, v)));
		return versions;
	}

}
