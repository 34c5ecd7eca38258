package io.khamsin.benchmark.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What {@code env.json} records about the machine and the software of a run: CPU, kernel, JDK, the versions of
 * every server, the tools and the flags.
 */
public final class Environment {

	private Environment() {
	}

	public static Map<String, Object> describe(String host, String commit, Map<String, Object> run) {
		Map<String, Object> env = new LinkedHashMap<>();
		env.put("host", host);
		env.put("commit", commit);
		env.put("cpu", cpuModel());
		env.put("cores", Runtime.getRuntime().availableProcessors());
		env.put("online_cpus", read("/sys/devices/system/cpu/online"));
		env.put("kernel", command("uname", "-srm"));
		env.put("memory_kb", memTotal());
		env.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		env.put("java_home", System.getProperty("java.home"));
		Map<String, Object> versions = new LinkedHashMap<>();
		versions.put("spring-boot", implementationVersion("org.springframework.boot.SpringApplication", "4.0.7"));
		versions.put("netty", io.netty.util.Version.identify().values().stream()
			.filter((v) -> v.artifactId().equals("netty-common")).map(io.netty.util.Version::artifactVersion)
			.findFirst().orElse("?"));
		versions.put("vertx", implementationVersion("io.vertx.core.Vertx", "?"));
		versions.put("hdrhistogram", implementationVersion("org.HdrHistogram.Histogram", "?"));
		versions.put("nginx", command("/usr/sbin/nginx", "-v"));
		versions.put("wrk", firstLine(command("wrk", "-v")));
		env.put("versions", versions);
		env.putAll(run);
		return env;
	}

	private static String implementationVersion(String className, String fallback) {
		try {
			String version = Class.forName(className).getPackage().getImplementationVersion();
			return (version != null) ? version : fallback;
		}
		catch (ClassNotFoundException ex) {
			return fallback;
		}
	}

	private static String cpuModel() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).trim();
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return "unknown";
	}

	private static String memTotal() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					return line.substring(9).trim();
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return "unknown";
	}

	private static String read(String file) {
		try {
			return Files.readString(Path.of(file)).trim();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static String firstLine(String text) {
		return text.lines().findFirst().orElse("");
	}

	/** @return what the command printed (stdout and stderr), trimmed, or "absent" */
	public static String command(String... command) {
		try {
			Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes()).trim();
			process.waitFor(10, TimeUnit.SECONDS);
			return out;
		}
		catch (IOException ex) {
			return "absent";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

}
