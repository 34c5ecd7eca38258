package io.khamsin.container.compression;

import java.util.List;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.khamsin.container.compression.CompressionDecision.Reason;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The rules that decide whether a response is compressed, each on its own: Boot's options (enabled, mime types
 * with its matching, minimum size, excluded user agents) and HTTP's (no body, already encoded, ranges, HEAD,
 * sendfile), and the headers a decision leaves on the response.
 */
class ResponseCompressionTests {

	private static final long UNKNOWN = ResponseCompression.UNKNOWN_LENGTH;

	private final ResponseCompression defaults = new ResponseCompression(
			CompressionConfig.of(true, CompressionConfig.DEFAULT_MIME_TYPES, 2048, List.of()));

	@Test
	void aLargeEnoughJsonResponseToAClientThatAcceptsGzipIsCompressed() {
		HttpHeaders response = response("application/json");
		response.setInt("Content-Length", 5000);
		CompressionDecision decision = decide(this.defaults, request("gzip"), 200, response, 5000);
		assertThat(decision.reason()).isEqualTo(Reason.COMPRESSED);
		assertThat(decision.coding()).isEqualTo(ContentCoding.GZIP);
		assertThat(decision.compresses()).isTrue();
		decision.applyTo(response);
		assertThat(response.get("Content-Encoding")).isEqualTo("gzip");
		assertThat(response.contains("Content-Length")).isFalse();
		assertThat(response.getAll("Vary")).containsExactly("Accept-Encoding");
	}

	@Test
	void compressionSwitchedOffChangesNothing() {
		ResponseCompression off = new ResponseCompression(CompressionConfig.disabled());
		HttpHeaders response = response("application/json");
		CompressionDecision decision = decide(off, request("gzip"), 200, response, 5000);
		assertThat(decision.reason()).isEqualTo(Reason.DISABLED);
		decision.applyTo(response);
		assertThat(response.names()).containsExactly("Content-Type");
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/html", "text/xml", "text/plain", "text/css", "text/javascript",
			"application/javascript", "application/json", "application/xml", "text/html;charset=UTF-8",
			"application/json; charset=utf-8", "TEXT/HTML" })
	void bootsDefaultTypesAreCompressedWhateverTheirParameters(String contentType) {
		assertThat(decide(this.defaults, request("gzip"), 200, response(contentType), 5000).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@ParameterizedTest
	@ValueSource(strings = { "image/png", "application/octet-stream", "text/event-stream", "application/problem+json",
			"application/x-ndjson", "video/mp4", "not a media type", "text/", "" })
	void otherTypesAreNotCompressedByDefault(String contentType) {
		CompressionDecision decision = decide(this.defaults, request("gzip"), 200, response(contentType), 5000);
		assertThat(decision.reason()).isEqualTo(Reason.TYPE_NOT_COMPRESSED);
		assertThat(decision.varies()).isFalse();
	}

	@Test
	void aResponseWithoutAContentTypeIsNotCompressed() {
		assertThat(decide(this.defaults, request("gzip"), 200, new DefaultHttpHeaders(), 5000).reason())
			.isEqualTo(Reason.TYPE_NOT_COMPRESSED);
	}

	@Test
	void configuredTypesMatchAsSpringsMimeTypesAreCompatible() {
		ResponseCompression compression = new ResponseCompression(CompressionConfig.of(true,
				List.of("text/*", "application/*+json", "image/svg+xml;charset=utf-8"), 0, List.of()));
		assertThat(decide(compression, request("br"), 200, response("text/csv"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("br"), 200, response("text/event-stream"), UNKNOWN).reason())
			.isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("br"), 200, response("application/vnd.api+json"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("br"), 200, response("image/svg+xml"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
		// Spring takes application/json as compatible with application/*+json, and so does Boot.
		assertThat(decide(compression, request("br"), 200, response("application/json"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("br"), 200, response("application/xml"), 10).reason())
			.isEqualTo(Reason.TYPE_NOT_COMPRESSED);
		assertThat(decide(compression, request("br"), 200, response("image/png"), 10).reason())
			.isEqualTo(Reason.TYPE_NOT_COMPRESSED);
	}

	@Test
	void noConfiguredTypesCompressEveryResponseEvenWithoutAContentType() {
		ResponseCompression compression = new ResponseCompression(CompressionConfig.of(true, List.of(), 0, List.of()));
		assertThat(decide(compression, request("gzip"), 200, new DefaultHttpHeaders(), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("gzip"), 200, response("image/png"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void aBodyBelowTheMinimumIsNotCompressedAndDoesNotVary() {
		CompressionDecision small = decide(this.defaults, request("gzip"), 200, response("text/html"), 2047);
		assertThat(small.reason()).isEqualTo(Reason.TOO_SMALL);
		assertThat(small.varies()).isFalse();
		assertThat(decide(this.defaults, request("gzip"), 200, response("text/html"), 2048).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void theLengthOfAStreamIsItsContentLengthWhenItHasOne() {
		HttpHeaders small = response("text/html");
		small.set("Content-Length", "100");
		assertThat(decide(this.defaults, request("gzip"), 200, small, UNKNOWN).reason()).isEqualTo(Reason.TOO_SMALL);
		HttpHeaders large = response("text/html");
		large.set("Content-Length", "4096");
		assertThat(decide(this.defaults, request("gzip"), 200, large, UNKNOWN).reason()).isEqualTo(Reason.COMPRESSED);
		HttpHeaders unparsable = response("text/html");
		unparsable.set("Content-Length", "many");
		assertThat(decide(this.defaults, request("gzip"), 200, unparsable, UNKNOWN).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void aStreamOfUnknownLengthIsCompressedWhateverItsSize() {
		assertThat(decide(this.defaults, request("gzip"), 200, response("text/plain"), UNKNOWN).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void aMinimumOfZeroCompressesEveryBody() {
		ResponseCompression compression = new ResponseCompression(
				CompressionConfig.of(true, CompressionConfig.DEFAULT_MIME_TYPES, 0, List.of()));
		assertThat(decide(compression, request("gzip"), 200, response("text/plain"), 1).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void aResponseToHeadIsNotCompressedButVaries() {
		HttpHeaders response = response("text/html");
		response.setInt("Content-Length", 5000);
		CompressionDecision decision = this.defaults.decide(request("gzip"), true, 200, response, 5000, false);
		assertThat(decision.reason()).isEqualTo(Reason.HEAD);
		decision.applyTo(response);
		assertThat(response.get("Vary")).isEqualTo("Accept-Encoding");
		assertThat(response.getInt("Content-Length")).isEqualTo(5000);
		assertThat(response.contains("Content-Encoding")).isFalse();
	}

	@ParameterizedTest
	@ValueSource(ints = { 100, 101, 103, 204 })
	void responsesWithoutABodyAreNotCompressed(int status) {
		CompressionDecision decision = decide(this.defaults, request("gzip"), status, response("text/html"), 0);
		assertThat(decision.reason()).isEqualTo(Reason.NO_CONTENT);
		assertThat(decision.varies()).isFalse();
	}

	@Test
	void notModifiedIsNotCompressedButVariesAsTheResponseItStandsFor() {
		CompressionDecision decision = decide(this.defaults, request("gzip"), 304, response("text/html"), 0);
		assertThat(decision.reason()).isEqualTo(Reason.NOT_MODIFIED);
		assertThat(decision.varies()).isTrue();
		assertThat(decide(this.defaults, request("gzip"), 304, new DefaultHttpHeaders(), 0).varies()).isFalse();
	}

	@Test
	void aRangeResponseIsNeverCompressed() {
		HttpHeaders partial = response("text/plain");
		partial.set("Content-Range", "bytes 0-4999/20000");
		assertThat(decide(this.defaults, request("gzip"), 206, partial, 5000).reason()).isEqualTo(Reason.RANGE);
		assertThat(decide(this.defaults, request("gzip"), 206, response("text/plain"), 5000).reason())
			.isEqualTo(Reason.RANGE);
		HttpHeaders unsatisfiable = response("text/plain");
		unsatisfiable.set("Content-Range", "bytes */20000");
		assertThat(decide(this.defaults, request("gzip"), 200, unsatisfiable, 5000).reason()).isEqualTo(Reason.RANGE);
	}

	@Test
	void aResponseTheApplicationEncodedIsLeftAlone() {
		HttpHeaders response = response("text/html");
		response.set("Content-Encoding", "br");
		response.setInt("Content-Length", 5000);
		CompressionDecision decision = decide(this.defaults, request("gzip"), 200, response, 5000);
		assertThat(decision.reason()).isEqualTo(Reason.ALREADY_ENCODED);
		decision.applyTo(response);
		assertThat(response.get("Content-Encoding")).isEqualTo("br");
		assertThat(response.getInt("Content-Length")).isEqualTo(5000);
		assertThat(response.contains("Vary")).isFalse();
	}

	@Test
	void aFileSentBySendfileIsNotCompressedButVaries() {
		CompressionDecision decision = this.defaults.decide(request("gzip"), false, 200, response("text/css"), 90_000,
				true);
		assertThat(decision.reason()).isEqualTo(Reason.FILE_REGION);
		assertThat(decision.varies()).isTrue();
	}

	@Test
	void aClientThatAcceptsNoCodingGetsIdentityWithVary() {
		HttpHeaders response = response("text/html");
		CompressionDecision decision = decide(this.defaults, new DefaultHttpHeaders(), 200, response, 5000);
		assertThat(decision.reason()).isEqualTo(Reason.NOT_ACCEPTED);
		decision.applyTo(response);
		assertThat(response.get("Vary")).isEqualTo("Accept-Encoding");
		assertThat(response.contains("Content-Encoding")).isFalse();
		assertThat(decide(this.defaults, request("identity"), 200, response("text/html"), 5000).reason())
			.isEqualTo(Reason.NOT_ACCEPTED);
	}

	@Test
	void excludedUserAgentsMatchTheWholeHeaderIgnoringCaseAsReactorNettyDoes() {
		ResponseCompression compression = new ResponseCompression(CompressionConfig.of(true,
				CompressionConfig.DEFAULT_MIME_TYPES, 0, List.of("Legacy-Agent/1.0", "gozilla")));
		assertThat(decide(compression, request("gzip", "legacy-agent/1.0"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.USER_AGENT_EXCLUDED);
		assertThat(decide(compression, request("gzip", "Gozilla"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.USER_AGENT_EXCLUDED);
		assertThat(decide(compression, request("gzip", "Legacy-Agent/1.0 (x11)"), 200, response("text/html"), 10)
			.reason()).isEqualTo(Reason.COMPRESSED);
		assertThat(decide(compression, request("gzip"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void excludedUserAgentsAlsoMatchAsRegularExpressionsAsTomcatDoes() {
		ResponseCompression compression = new ResponseCompression(CompressionConfig.of(true,
				CompressionConfig.DEFAULT_MIME_TYPES, 0, List.of(".*MSIE 6\\.0.*", "curl/.*")));
		CompressionDecision decision = decide(compression,
				request("gzip", "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)"), 200, response("text/html"), 10);
		assertThat(decision.reason()).isEqualTo(Reason.USER_AGENT_EXCLUDED);
		assertThat(decision.varies()).isTrue();
		assertThat(decide(compression, request("gzip", "curl/7.88.1"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.USER_AGENT_EXCLUDED);
		assertThat(decide(compression, request("gzip", "Mozilla/5.0 (MSIE 10.0)"), 200, response("text/html"), 10)
			.reason()).isEqualTo(Reason.COMPRESSED);
	}

	@Test
	void anExcludedAgentThatIsNotARegularExpressionStillMatchesLiterally() {
		ResponseCompression compression = new ResponseCompression(CompressionConfig.of(true,
				CompressionConfig.DEFAULT_MIME_TYPES, 0, List.of("Old (Agent")));
		assertThat(decide(compression, request("gzip", "old (agent"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.USER_AGENT_EXCLUDED);
	}

	@Test
	void varyIsAddedToTheFieldsAlreadyThereOnce() {
		HttpHeaders response = response("text/html");
		response.add("Vary", "Origin");
		decide(this.defaults, request("gzip"), 200, response, 5000).applyTo(response);
		assertThat(response.getAll("Vary")).containsExactly("Origin", "Accept-Encoding");
		HttpHeaders listed = response("text/html");
		listed.add("Vary", "Origin, accept-encoding");
		decide(this.defaults, request("gzip"), 200, listed, 5000).applyTo(listed);
		assertThat(listed.getAll("Vary")).containsExactly("Origin, accept-encoding");
		HttpHeaders star = response("text/html");
		star.add("Vary", "*");
		decide(this.defaults, request("gzip"), 200, star, 5000).applyTo(star);
		assertThat(star.getAll("Vary")).containsExactly("*");
	}

	@Test
	void aCompressedResponseMakesItsStrongEtagWeakAndOffersNoRanges() {
		HttpHeaders strong = response("text/html");
		strong.set("ETag", "\"v1\"");
		strong.set("Accept-Ranges", "bytes");
		decide(this.defaults, request("zstd"), 200, strong, 5000).applyTo(strong);
		assertThat(strong.get("ETag")).isEqualTo("W/\"v1\"");
		assertThat(strong.contains("Accept-Ranges")).isFalse();
		assertThat(strong.get("Content-Encoding")).isEqualTo("zstd");
		HttpHeaders weak = response("text/html");
		weak.set("ETag", "W/\"v1\"");
		decide(this.defaults, request("zstd"), 200, weak, 5000).applyTo(weak);
		assertThat(weak.get("ETag")).isEqualTo("W/\"v1\"");
	}

	@Test
	void anUncompressedResponseKeepsItsEtagAndRanges() {
		HttpHeaders response = response("text/html");
		response.set("ETag", "\"v1\"");
		response.set("Accept-Ranges", "bytes");
		decide(this.defaults, new DefaultHttpHeaders(), 200, response, 5000).applyTo(response);
		assertThat(response.get("ETag")).isEqualTo("\"v1\"");
		assertThat(response.get("Accept-Ranges")).isEqualTo("bytes");
	}

	@Test
	void decisionsAreSharedAndOnlyACompressedOneMakesAnEncoder() {
		CompressionDecision first = decide(this.defaults, request("br"), 200, response("text/html"), 5000);
		assertThat(decide(this.defaults, request("br"), 200, response("text/css"), 9000)).isSameAs(first);
		CompressionDecision small = decide(this.defaults, request("br"), 200, response("text/html"), 10);
		assertThatIllegalStateException().isThrownBy(() -> small.newEncoder(io.netty.buffer.ByteBufAllocator.DEFAULT))
			.withMessageContaining("TOO_SMALL");
		first.newEncoder(io.netty.buffer.ByteBufAllocator.DEFAULT).close();
	}

	@Test
	void onlyTheConfiguredCodingsAreNegotiated() {
		ResponseCompression gzipOnly = new ResponseCompression(CompressionConfig
			.of(true, CompressionConfig.DEFAULT_MIME_TYPES, 0, List.of())
			.withCodings(ContentCoding.GZIP));
		assertThat(decide(gzipOnly, request("zstd, br, gzip"), 200, response("text/html"), 10).coding())
			.isEqualTo(ContentCoding.GZIP);
		assertThat(decide(gzipOnly, request("zstd, br"), 200, response("text/html"), 10).reason())
			.isEqualTo(Reason.NOT_ACCEPTED);
	}

	private static CompressionDecision decide(ResponseCompression compression, HttpHeaders request, int status,
			HttpHeaders response, long length) {
		return compression.decide(request, false, status, response, length, false);
	}

	private static HttpHeaders request(String acceptEncoding) {
		return new DefaultHttpHeaders().set("Accept-Encoding", acceptEncoding);
	}

	private static HttpHeaders request(String acceptEncoding, String userAgent) {
		return request(acceptEncoding).set("User-Agent", userAgent);
	}

	private static HttpHeaders response(String contentType) {
		return new DefaultHttpHeaders().set("Content-Type", contentType);
	}

}
