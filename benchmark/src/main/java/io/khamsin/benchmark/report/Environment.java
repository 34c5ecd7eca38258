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

	/**
	 * @param run what the runner adds (command, settings, flags, targets)
	 * @param targetClasspaths each JVM target's classpath, by target name, in report order
	 * @param runnerClasspath the benchmark's own classpath (the load generator)
	 */
	public static Map<String, Object> describe(String host, String commit, Map<String, Object> run,
			Map<String, String> targetClasspaths, String runnerClasspath) {
		Map<String, Object> env = new LinkedHashMap<>();
		env.put("host", host);
		env.put("commit", commit);
		env.put("cpu", cpuModel());
		String online = read("/sys/devices/system/cpu/online");
		// Not availableProcessors(): the runner is pinned to the load core, so it sees one.
		env.put("cores", (cpuCount(online) > 0) ? cpuCount(online) : Runtime.getRuntime().availableProcessors());
		env.put("online_cpus", online);
		env.put("kernel", command("uname", "-srm"));
		env.put("memory_kb", memTotal());
		env.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		env.put("java_home", System.getProperty("java.home"));
		env.put("versions", versions(targetClasspaths, runnerClasspath));
		env.putAll(run);
		return env;
	}

	/**
	 * The versions of the servers and tools, read from the jars each target runs on: one value per library where
	 * every target that has it runs the same version, else one per target; then each target's own versions.
	 */
	static Map<String, Object> versions(Map<String, String> targetClasspaths, String runnerClasspath) {
		Map<String, Map<String, String>> byTarget = new LinkedHashMap<>();
		targetClasspaths.forEach((target, classpath) -> byTarget.put(target, new ClasspathVersions(classpath).known()));
		Map<String, Object> versions = new LinkedHashMap<>();
		for (String library : ClasspathVersions.ARTIFACTS.keySet()) {
			Map<String, String> found = new LinkedHashMap<>();
			byTarget.forEach((target, known) -> {
				if (known.containsKey(library)) {
					found.put(target, known.get(library));
				}
			});
			if (found.isEmpty()) {
				new ClasspathVersions(runnerClasspath).version(ClasspathVersions.ARTIFACTS.get(library))
					.ifPresent((version) -> versions.put(library, version));
			}
			else {
				versions.put(library, (found.values().stream().distinct().count() == 1)
						? found.values().iterator().next() : found);
			}
		}
		versions.put("load-generator-netty",
				new ClasspathVersions(runnerClasspath).version("netty-common").orElse("not found"));
		versions.put("nginx", command("/usr/sbin/nginx", "-v"));
		versions.put("wrk", firstLine(command("wrk", "-v")));
		versions.put("by_target", byTarget);
		return versions;
	}

	/** @return how many CPUs a Linux CPU list such as {@code 0-1,4,6-7} names, or 0 if it names none */
	static int cpuCount(String list) {
		int count = 0;
		for (String part : list.trim().split(",")) {
			try {
				String[] range = part.split("-");
				int first = Integer.parseInt(range[0].trim());
				int last = (range.length > 1) ? Integer.parseInt(range[1].trim()) : first;
				count += Math.max(0, last - first + 1);
			}
			catch (NumberFormatException ex) {
				return 0;
			}
		}
		return count;
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
