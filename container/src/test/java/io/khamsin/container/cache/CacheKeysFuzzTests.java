package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page cache's keys and the request directives it reads, from request heads of any content. A request that is
 * looked up has a page key that names its page alone: {@code scheme://host} then exactly its path and query (what
 * a purge by path compares), with no {@code #} before the one that starts the {@code Vary} values, so that two
 * different pages never share a key. {@code Cache-Control} of any content gives delta-seconds from 0 to 2^31, or
 * none (RFC 9111, section 1.2.2). Run with {@code JAZZER_FUZZ=1} to fuzz ({@code benchmark/fuzz}); without it, the
 * inputs in {@code CacheKeysFuzzTestsInputs} are replayed.
 */
class CacheKeysFuzzTests {

	private static final long MAX_DELTA_SECONDS = 1L << 31;

	private static final String[] VARY = { "accept-language", "x-tenant", "cookie" };

	@FuzzTest(maxDuration = "8s")
	void aLookedUpRequestHasAPageKeyThatNamesItsPageAlone(FuzzedDataProvider data) {
		HttpHeaders headers = new DefaultHttpHeaders(false);
		if (data.consumeBoolean()) {
			headers.add("Host", fieldValue(data));
		}
		List<String> varyNames = new ArrayList<>();
		for (String name : VARY) {
			if (data.consumeBoolean()) {
				varyNames.add(name);
				headers.add(name, fieldValue(data));
			}
		}
		String scheme = data.consumeBoolean() ? "https" : "http";
		String target = data.consumeRemainingAsAsciiString().replaceAll("[\\s]", "");
		if (target.isEmpty()) {
			return;
		}
		CacheRequest request = CacheRequest.of(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target,
				headers), scheme);
		if (LookupRules.bypass(true, request) != null) {
			return;
		}
		String page = PageKeys.page(request);
		String pathAndQuery = request.path() + ((request.query() != null) ? "?" + request.query() : "");
		assertThat(page).startsWith(scheme + "://" + request.host());
		assertThat(PageKeys.pathAndQuery(page)).as("the path and query of %s", page).isEqualTo(pathAndQuery);
		assertThat(page).as("a page key has no variant separator").doesNotContain("#");
		String variant = PageKeys.variant(varyNames, request);
		String entryKey = PageKeys.entryKey(page, variant);
		int separator = entryKey.indexOf(PageKeys.VARIANT_SEPARATOR);
		assertThat((separator < 0) ? entryKey : entryKey.substring(0, separator)).isEqualTo(page);
		assertThat(variant.lines().count()).isEqualTo(varyNames.size());
	}

	@FuzzTest(maxDuration = "8s")
	void cacheControlOfAnyContentGivesDeltaSecondsWithinBounds(FuzzedDataProvider data) {
		List<String> values = new ArrayList<>();
		int count = data.consumeInt(1, 3);
		for (int i = 0; i < count; i++) {
			values.add(fieldValue(data));
		}
		CacheControl cc = CacheControl.parse(values);
		for (long seconds : new long[] { cc.maxAge(), cc.sMaxAge(), cc.staleWhileRevalidate(), cc.staleIfError() }) {
			assertThat(seconds).as("delta-seconds of %s", values).isBetween(-1L, MAX_DELTA_SECONDS);
		}
		assertThat(CacheControl.parse(values)).isEqualTo(cc);
	}

	/** A field value as the HTTP/1.1 decoder gives it: no line breaks, trimmed. */
	private static String fieldValue(FuzzedDataProvider data) {
		return data.consumeString(60).replaceAll("[\r\n\0]", "").trim();
	}

}
