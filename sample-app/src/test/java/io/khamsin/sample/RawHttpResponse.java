package io.khamsin.sample;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A response read by {@link RawHttpConnection}.
 *
 * @param version the HTTP version of its status line
 * @param status its status code
 * @param reason its reason phrase
 * @param headers its header fields, by lower-case name
 * @param body its body, decoded from chunks when it was chunked
 * @param complete whether the body ended as its framing says (the last chunk, or all of Content-Length) rather
 * than by the connection closing early
 */
record RawHttpResponse(String version, int status, String reason, Map<String, List<String>> headers, byte[] body,
		boolean complete) {

	/**
	 * The first value of a header field.
	 * @param name its name, in any case
	 * @return its first value, or {@code null} when absent
	 */
	String header(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values != null) ? values.get(0) : null;
	}

	String bodyText() {
		return new String(this.body, StandardCharsets.UTF_8);
	}

	RawHttpResponse withBody(byte[] body, boolean complete) {
		return new RawHttpResponse(this.version, this.status, this.reason, this.headers, body, complete);
	}

}
