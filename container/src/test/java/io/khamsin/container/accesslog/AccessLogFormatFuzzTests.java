package io.khamsin.container.accesslog;

import java.net.InetSocketAddress;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The access log's format ({@code khamsin.access-log.format}) of any content: it is refused with an
 * {@link IllegalArgumentException} that names the format, or it formats any entry (with or without a request head)
 * into one line, and its literal text comes out as it was written. Run with {@code JAZZER_FUZZ=1} to fuzz
 * ({@code benchmark/fuzz}); without it, the inputs in {@code AccessLogFormatFuzzTestsInputs} are replayed.
 */
class AccessLogFormatFuzzTests {

	@FuzzTest(maxDuration = "8s")
	void anyFormatIsRefusedWithItsDirectiveNamedOrFormatsEveryEntry(FuzzedDataProvider data) {
		String uri = data.consumeString(40).replaceAll("[\\s]", "");
		String header = data.consumeString(40).replaceAll("[\r\n\0]", "");
		String format = data.consumeRemainingAsString();
		AccessLogFormat parsed;
		try {
			parsed = AccessLogFormat.parse(format);
		}
		catch (IllegalArgumentException ex) {
			assertThat(ex).hasMessageStartingWith("Access log format '" + format + "' has an unknown directive");
			return;
		}
		DefaultHttpHeaders headers = new DefaultHttpHeaders(false);
		headers.add("User-Agent", header);
		DefaultHttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
				uri.isEmpty() ? "/" : uri, headers);
		for (AccessLogEntry entry : new AccessLogEntry[] {
				new AccessLogEntry(null, request, new InetSocketAddress("192.0.2.1", 4711), 200, "12", 0),
				new AccessLogEntry(null, null, null, 400, null, 0) }) {
			StringBuilder line = new StringBuilder();
			assertThat(catchThrowable(() -> parsed.format(entry, line))).isNull();
			if (format.indexOf('\n') < 0 && format.indexOf('\r') < 0) {
				assertThat(line.toString()).as("one line").doesNotContain("\n", "\r");
			}
		}
		String literal = format.replace("%", "");
		StringBuilder line = new StringBuilder();
		AccessLogFormat.parse(literal.replace("%", "%%") + "%%").format(new AccessLogEntry(null, null, null, 0, null, 0),
				line);
		assertThat(line).hasToString(literal + "%");
	}

}
