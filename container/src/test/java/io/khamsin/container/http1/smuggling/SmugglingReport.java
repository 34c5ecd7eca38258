package io.khamsin.container.http1.smuggling;

import java.util.List;
import java.util.function.Predicate;

import io.khamsin.container.http1.smuggling.SmugglingThroughProxiesTests.Row;

/**
 * The results table of the smuggling corpus, in Markdown.
 */
final class SmugglingReport {

	private SmugglingReport() {
	}

	static String markdown(List<Row> rows, String nginxVersion, String haproxyVersion) {
		StringBuilder out = new StringBuilder();
		out.append("# Request smuggling: khamsin directly, and behind nginx and HAProxy\n\n");
		out.append("Each case of the corpus (`container/src/test/resources/smuggling/corpus.txt`, which says what each "
				+ "case is) sent straight to khamsin, and through each proxy to khamsin, followed each time by a "
				+ "victim's request on another client connection through the same proxy. The proxies keep and reuse "
				+ "their connections to khamsin (nginx: `keepalive 4`, `proxy_http_version 1.1`; HAProxy: "
				+ "`http-reuse always`), and take HTTP/2 with prior knowledge on a second port for the h2 cases, "
				+ "which they forward as HTTP/1.1.\n\n");
		out.append("Written by `SmugglingThroughProxiesTests`, which fails on any desync and on any case both "
				+ "proxies refuse that khamsin accepts; regenerate it from the repository's root with\n\n");
		out.append("    mvn -o -q -B -pl container test -Dtest=SmugglingThroughProxiesTests "
				+ "-Dsurefire.failIfNoSpecifiedTests=false -Dkhamsin.smuggling.report=$PWD/benchmark/smuggling/RESULTS.md\n\n");
		out.append("Proxies: `").append(nginxVersion).append("` (`nginx -v`), `").append(haproxyVersion)
			.append("` (`haproxy -v`).\n\n");
		out.append("## Summary\n\n");
		out.append("| | cases |\n|---|---:|\n");
		out.append("| in the corpus | ").append(rows.size()).append(" |\n");
		out.append("| expected of khamsin: REJECT | ").append(count(rows, (row) -> row.testCase().expected()
				== SmugglingCorpus.Expected.REJECT)).append(" |\n");
		out.append("| expected of khamsin: PARSE | ").append(count(rows, (row) -> row.testCase().expected()
				!= SmugglingCorpus.Expected.REJECT)).append(" |\n");
		out.append("| khamsin directly: passed to the application | ").append(count(rows, (row) -> row.direct().parsed()))
			.append(" |\n");
		out.append("| nginx in front: passed to the application | ").append(count(rows, (row) -> row.nginx().parsed()))
			.append(" |\n");
		out.append("| HAProxy in front: passed to the application | ")
			.append(count(rows, (row) -> row.haproxy().parsed()))
			.append(" |\n");
		out.append("| refused by both proxies | ")
			.append(count(rows, (row) -> !row.nginx().parsed() && !row.haproxy().parsed()))
			.append(" |\n");
		out.append("| refused by both proxies, accepted by khamsin directly | ")
			.append(count(rows, (row) -> !row.nginx().parsed() && !row.haproxy().parsed() && row.direct().parsed()))
			.append(" |\n");
		out.append("| nginx: the victim's request reached khamsin on a connection the case had used | ")
			.append(count(rows, (row) -> row.nginx().shared()))
			.append(" |\n");
		out.append("| HAProxy: the victim's request reached khamsin on a connection the case had used | ")
			.append(count(rows, (row) -> row.haproxy().shared()))
			.append(" |\n");
		out.append("| desyncs (a response to another request, or a hidden request reaching the application) | ")
			.append(count(rows, Row::desync))
			.append(" |\n\n");
		out.append("## Cases\n\n");
		out.append("\"passed\": the application read the request whole; \"refused\": it did not (the proxy or khamsin "
				+ "answered it). \"(victim after it)\": the victim's request reached khamsin on a connection to khamsin the case's "
				+ "requests had used. Then the statuses the client got on its connection (the case, then the marker request "
				+ "sent after it on the same connection) and how the connection ended; for h2, the status and how the "
				+ "stream ended.\n\n");
		out.append("One row may differ between runs: HAProxy forwards the head of h2-length-short (content-length 0) as "
				+ "soon as it has it, so that the application may read that request, empty, before HAProxy sees the "
				+ "DATA that breaks its length and resets the stream; none of that DATA reaches khamsin either way.\n\n");
		out.append("| case | protocol | expected | khamsin directly | nginx → khamsin | HAProxy → khamsin | desync |\n");
		out.append("|---|---|---|---|---|---|---|\n");
		for (Row row : rows) {
			out.append("| ").append(row.testCase().id())
				.append(" | ").append(row.testCase().protocol().name().toLowerCase())
				.append(" | ").append(row.testCase().expected())
				.append(" | ").append(row.direct())
				.append(" | ").append(row.nginx()).append(row.nginx().shared() ? " (victim after it)" : "")
				.append(" | ").append(row.haproxy()).append(row.haproxy().shared() ? " (victim after it)" : "")
				.append(" | ").append(row.desync() ? "yes: " + String.join("; ", row.desyncs()) : "no")
				.append(" |\n");
		}
		return out.toString();
	}

	private static long count(List<Row> rows, Predicate<Row> predicate) {
		return rows.stream().filter(predicate).count();
	}

}
