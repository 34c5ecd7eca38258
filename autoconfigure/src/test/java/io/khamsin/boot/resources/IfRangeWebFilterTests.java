package io.khamsin.boot.resources;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When an {@code If-Range} condition lets the range be served (RFC 9110, section 13.1.5).
 */
class IfRangeWebFilterTests {

	private static final long LAST_MODIFIED = 1_700_000_000_000L;

	private static final String DATE = "Tue, 14 Nov 2023 22:13:20 GMT";

	@Test
	void aStrongEntityTagMatchesTheSameStrongOneOnly() {
		assertThat(IfRangeWebFilter.matches("\"v1\"", response("\"v1\""))).isTrue();
		assertThat(IfRangeWebFilter.matches(" \"v1\" ", response("\"v1\""))).isTrue();
		assertThat(IfRangeWebFilter.matches("\"v1\"", response("\"v2\""))).isFalse();
		assertThat(IfRangeWebFilter.matches("\"v1\"", response("W/\"v1\""))).isFalse();
		assertThat(IfRangeWebFilter.matches("W/\"v1\"", response("W/\"v1\""))).isFalse();
		assertThat(IfRangeWebFilter.matches("\"v1\"", response(null))).isFalse();
	}

	@Test
	void aDateMatchesTheLastModifiedToTheSecondOnceItIsStrong() {
		HttpHeaders response = response(null);
		response.setLastModified(LAST_MODIFIED + 400);
		assertThat(IfRangeWebFilter.matches(DATE, response)).isTrue();
		response.setLastModified(LAST_MODIFIED + 1000);
		assertThat(IfRangeWebFilter.matches(DATE, response)).isFalse();
		assertThat(IfRangeWebFilter.matches(DATE, response(null))).as("no Last-Modified").isFalse();
		response.setLastModified(LAST_MODIFIED);
		assertThat(IfRangeWebFilter.matches(DATE, response, LAST_MODIFIED + 999)).as("a date under a second old")
			.isFalse();
		assertThat(IfRangeWebFilter.matches(DATE, response, LAST_MODIFIED + 1000)).isTrue();
		assertThat(IfRangeWebFilter.matches("yesterday", response)).isFalse();
		assertThat(IfRangeWebFilter.matches("", response)).isFalse();
	}

	private static HttpHeaders response(String etag) {
		HttpHeaders headers = new HttpHeaders();
		if (etag != null) {
			headers.setETag(etag);
		}
		return headers;
	}

}
