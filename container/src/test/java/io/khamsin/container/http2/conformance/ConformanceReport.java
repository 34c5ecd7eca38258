package io.khamsin.container.http2.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The summary of a run: per target, the cases passed per group and in total, the cases that failed and the cases
 * not run with the capability they wait for. Written to {@code target/h2-conformance.txt} and printed when the run
 * ends (it is closed with JUnit's root store).
 */
final class ConformanceReport implements AutoCloseable {

	private static final List<String> KEY_ORDER = List.of("generic", "http2", "hpack", "abuse");

	private final Map<String, List<Entry>> entriesByTarget = new LinkedHashMap<>();

	private final Map<String, String> capabilitiesByTarget = new LinkedHashMap<>();

	synchronized void target(String target, Set<Capability> capabilities) {
		this.capabilitiesByTarget.put(target, capabilities.toString());
	}

	synchronized void passed(String target, CaseId id) {
		add(target, new Entry(id, Result.PASSED, ""));
	}

	synchronized void failed(String target, CaseId id, String detail) {
		add(target, new Entry(id, Result.FAILED, detail));
	}

	synchronized void notRun(String target, CaseId id, String reason) {
		add(target, new Entry(id, Result.NOT_RUN, reason));
	}

	private void add(String target, Entry entry) {
		this.entriesByTarget.computeIfAbsent(target, (name) -> new ArrayList<>()).add(entry);
	}

	synchronized String render() {
		StringBuilder text = new StringBuilder();
		for (Map.Entry<String, List<Entry>> target : this.entriesByTarget.entrySet()) {
			List<Entry> entries = target.getValue();
			text.append("HTTP/2 conformance of ")
				.append(target.getKey())
				.append(", capabilities ")
				.append(this.capabilitiesByTarget.getOrDefault(target.getKey(), "[]"))
				.append('\n');
			Map<String, int[]> groups = new TreeMap<>(GROUP_ORDER);
			for (Entry entry : entries) {
				int[] counts = groups.computeIfAbsent(entry.id().group(), (group) -> new int[3]);
				counts[entry.result().ordinal()]++;
			}
			int[] total = new int[3];
			groups.forEach((group, counts) -> {
				text.append(String.format("  %-62s %3d passed, %d failed, %d not run%n", group, counts[0],
						counts[1], counts[2]));
				for (int i = 0; i < 3; i++) {
					total[i] += counts[i];
				}
			});
			text.append(String.format("  %-62s %3d passed, %d failed, %d not run%n", "total", total[0], total[1],
					total[2]));
			appendDetails(text, entries, Result.FAILED, "failed");
			appendDetails(text, entries, Result.NOT_RUN, "not run");
			text.append('\n');
		}
		return text.toString();
	}

	private static void appendDetails(StringBuilder text, List<Entry> entries, Result result, String heading) {
		List<Entry> matching = entries.stream()
			.filter((entry) -> entry.result() == result)
			.sorted(Comparator.comparing((Entry entry) -> entry.id().group(), GROUP_ORDER))
			.toList();
		if (matching.isEmpty()) {
			return;
		}
		text.append("  ").append(heading).append(":\n");
		for (Entry entry : matching) {
			String detail = entry.detail().replace('\n', ' ');
			text.append("    ")
				.append(entry.id().key())
				.append('/')
				.append(entry.id().section())
				.append(' ')
				.append(entry.id().sentence())
				.append(" (")
				.append(entry.id().rfc())
				.append("): ")
				.append((detail.length() > 400) ? detail.substring(0, 400) + "..." : detail)
				.append('\n');
		}
	}

	private static final Comparator<String> GROUP_ORDER = (left, right) -> {
		String[] a = left.split("[/ ]", 3);
		String[] b = right.split("[/ ]", 3);
		int byKey = Integer.compare(keyRank(a[0]), keyRank(b[0]));
		if (byKey != 0) {
			return byKey;
		}
		String[] x = a[1].split("\\.");
		String[] y = b[1].split("\\.");
		for (int i = 0; i < Math.min(x.length, y.length); i++) {
			int part = compareParts(x[i], y[i]);
			if (part != 0) {
				return part;
			}
		}
		return (x.length != y.length) ? Integer.compare(x.length, y.length) : left.compareTo(right);
	};

	private static int keyRank(String key) {
		int rank = KEY_ORDER.indexOf(key);
		return (rank >= 0) ? rank : KEY_ORDER.size();
	}

	private static int compareParts(String x, String y) {
		try {
			return Integer.compare(Integer.parseInt(x), Integer.parseInt(y));
		}
		catch (NumberFormatException ex) {
			return x.compareTo(y);
		}
	}

	@Override
	public void close() throws IOException {
		String text = render();
		System.out.println(text);
		Path file = Path.of(System.getProperty("basedir", "."), "target", "h2-conformance.txt");
		Files.createDirectories(file.getParent());
		Files.writeString(file, text, StandardCharsets.UTF_8);
	}

	private enum Result {

		PASSED, FAILED, NOT_RUN

	}

	private record Entry(CaseId id, Result result, String detail) {
	}

}
