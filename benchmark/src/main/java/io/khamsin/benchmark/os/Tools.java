package io.khamsin.benchmark.os;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The programs a campaign runs besides its JVM targets ({@code benchmark/tools.tsv}: program, Debian package, the
 * scenarios or targets that need it), and where each is installed. {@code benchmark/bench} installs the missing ones
 * when it runs as root; the campaign runner refuses to start without them, because a campaign that falls back to
 * something else (the generator's own closed loop for wrk's, no nginx row) measures another thing under the same
 * name.
 */
public final class Tools {

	/**
	 * Where programs are looked for: {@code KHAMSIN_BENCH_TOOLS_PATH} when set, else {@code PATH} and the system
	 * directories a non-root {@code PATH} leaves out (Debian installs nginx in /usr/sbin).
	 */
	public static final String SEARCH_PATH_VARIABLE = "KHAMSIN_BENCH_TOOLS_PATH";

	private final List<Tool> tools;

	private final List<Path> searchPath;

	Tools(List<Tool> tools, List<Path> searchPath) {
		this.tools = List.copyOf(tools);
		this.searchPath = List.copyOf(searchPath);
	}

	/**
	 * @param table the tools file ({@code benchmark/tools.tsv})
	 * @return the tools it lists, looked for in this process's search path
	 */
	public static Tools read(Path table) {
		List<Tool> tools = new ArrayList<>();
		try {
			for (String line : Files.readAllLines(table)) {
				if (line.isBlank() || line.startsWith("#")) {
					continue;
				}
				String[] fields = line.split("\t");
				if (fields.length != 4) {
					throw new IllegalArgumentException(table + ": expected program, package, needed-by and what a "
							+ "campaign loses without it, separated by tabs; found '" + line + "'");
				}
				tools.add(new Tool(fields[0], fields[1], Set.of(fields[2].split(",")),
						fields[3].equals("-") ? null : fields[3]));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the tools file " + table, ex);
		}
		return new Tools(tools, defaultSearchPath());
	}

	/**
	 * @param program a program's name, e.g. {@code wrk}
	 * @return where this process finds it, if it is installed
	 */
	public static Optional<Path> locate(String program) {
		return new Tools(List.of(), defaultSearchPath()).find(program);
	}

	private static List<Path> defaultSearchPath() {
		return searchPath(System.getenv(SEARCH_PATH_VARIABLE), System.getenv("PATH"));
	}

	static List<Path> searchPath(String override, String path) {
		List<Path> dirs = new ArrayList<>();
		String source = (override != null && !override.isEmpty()) ? override
				: ((path != null) ? path : "") + File.pathSeparator + "/usr/local/sbin:/usr/sbin:/sbin";
		for (String dir : source.split(File.pathSeparator)) {
			if (!dir.isEmpty()) {
				dirs.add(Path.of(dir));
			}
		}
		return dirs;
	}

	/** @return every program of the table */
	List<Tool> tools() {
		return this.tools;
	}

	/**
	 * @param program a program's name, e.g. {@code wrk}
	 * @return where it is installed, if it is
	 */
	public Optional<Path> find(String program) {
		for (Path dir : this.searchPath) {
			Path candidate = dir.resolve(program);
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/**
	 * The tools a campaign needs and does not find.
	 * @param scenarios the scenarios it runs
	 * @param targets the targets it runs
	 */
	public List<Tool> missing(Collection<String> scenarios, Collection<String> targets) {
		List<Tool> missing = new ArrayList<>();
		for (Tool tool : this.tools) {
			if (tool.neededBy(scenarios, targets) && find(tool.program()).isEmpty()) {
				missing.add(tool);
			}
		}
		return missing;
	}

	/**
	 * What to tell someone whose machine lacks {@code missing}.
	 * @return a message naming each program, why it is needed, and the command that installs them all
	 */
	public static String advice(List<Tool> missing) {
		StringBuilder message = new StringBuilder("this campaign needs programs that are not installed:\n");
		Set<String> packages = new LinkedHashSet<>();
		for (Tool tool : missing) {
			message.append("  ").append(tool.program()).append(" (Debian package ").append(tool.debianPackage())
				.append(", needed by ").append(String.join(", ", tool.neededBy().stream().sorted().toList()))
				.append(")\n");
			packages.add(tool.debianPackage());
		}
		message.append("install them with: apt-get install ").append(String.join(" ", packages))
			.append("\n(benchmark/bench installs them itself when run as root)");
		return message.toString();
	}

	/**
	 * One program.
	 *
	 * @param program its name on the search path
	 * @param debianPackage the Debian package that installs it
	 * @param neededBy {@code all}, scenario names, or {@code target:NAME}
	 * @param without what a campaign loses when it runs without it ({@code --allow-missing}), or {@code null} when
	 * none can
	 */
	public record Tool(String program, String debianPackage, Set<String> neededBy, String without) {

		public Tool {
			neededBy = Set.copyOf(neededBy);
		}

		boolean neededBy(Collection<String> scenarios, Collection<String> targets) {
			for (String need : this.neededBy) {
				if (need.equals("all") || scenarios.contains(need)
						|| (need.startsWith("target:") && targets.contains(need.substring("target:".length())))) {
					return true;
				}
			}
			return false;
		}

	}

}
