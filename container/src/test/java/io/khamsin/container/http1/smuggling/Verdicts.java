package io.khamsin.container.http1.smuggling;

import java.nio.charset.StandardCharsets;

import org.assertj.core.api.SoftAssertions;

import io.khamsin.container.http1.smuggling.SmugglingCorpus.Case;
import io.khamsin.container.http1.smuggling.SmugglingCorpus.Expected;
import io.khamsin.container.http1.smuggling.SmugglingCorpus.Protocol;
import io.khamsin.container.test.RawHttpConnection.Response;

/**
 * What khamsin's answer to a corpus case must be, checked against what came back and what reached the application.
 */
final class Verdicts {

	private Verdicts() {
	}

	/**
	 * Check khamsin's answer to a case sent to it directly.
	 * @param testCase the case
	 * @param result what came back
	 * @param application the application behind khamsin
	 * @param where the name the case was sent under
	 */
	static void assertDirect(Case testCase, Probe.Result result, EchoApplication application, String where) {
		String path = Probe.path(testCase, where);
		String marker = Probe.markerPath(testCase, where);
		String method = method(testCase);
		SoftAssertions softly = new SoftAssertions();
		softly.assertThat(application.arrived(SmugglingCorpus.SMUGGLED_PATH))
			.as("requests hidden in %s that reached the application", testCase.id())
			.isEmpty();
		if (testCase.expected() == Expected.REJECT) {
			// A head that is well formed reaches the application before the body that breaks its framing arrives.
			softly.assertThat(application.read(path)).as("requests of %s the application read whole", testCase.id())
				.isEmpty();
			softly.assertThat(result.responses()).as("responses to %s (%s)", testCase.id(), result.summary())
				.hasSizeLessThanOrEqualTo(1)
				.allSatisfy((response) -> softly.assertThat(response.status()).isBetween(400, 599));
			if (testCase.protocol() == Protocol.H1) {
				softly.assertThat(result.closed()).as("%s closed the connection (%s)", testCase.id(), result.summary())
					.isTrue();
			}
			else {
				softly.assertThat(result.responses().isEmpty() ? result.end() : "status")
					.as("how %s ended (%s)", testCase.id(), result.summary())
					.matches("status|RST_STREAM \\d+|GOAWAY \\d+|closed");
			}
		}
		else {
			softly.assertThat(application.read(path)).as("requests of %s the application read whole", testCase.id())
				.containsExactly(method + " " + path);
			softly.assertThat(result.responses()).as("responses to %s (%s)", testCase.id(), result.summary())
				.isNotEmpty();
			if (!result.responses().isEmpty()) {
				softly.assertThat(result.responses().get(0).status()).as("status of %s", testCase.id()).isEqualTo(200);
				if (!"HEAD".equals(method)) {
					softly.assertThat(result.responses().get(0).bodyText()).as("what the application parsed of %s",
							testCase.id()).isEqualTo(EchoApplication.echo(method, path, testCase.body()));
				}
			}
			if (testCase.protocol() == Protocol.H1) {
				softly.assertThat(result.responses()).as("responses to %s (%s)", testCase.id(), result.summary())
					.hasSize(2)
					.last()
					.extracting(Response::bodyText)
					.isEqualTo(EchoApplication.echo("GET", marker, ""));
			}
		}
		softly.assertAll();
	}

	/** @return the method of a case's request */
	static String method(Case testCase) {
		if (testCase.protocol() == Protocol.H2) {
			return testCase.h2Fields("/").get(0)[1];
		}
		String line = new String(testCase.h1Bytes("/"), StandardCharsets.ISO_8859_1);
		return line.split("[ \t]", 2)[0];
	}

}
