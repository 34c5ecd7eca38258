package io.khamsin.container.cache;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;

/**
 * The HTTP/2 header blocks of page-cache answers: a copy of the entry's pre-built {@link Http2Headers} with
 * {@code date} and {@code age} added, for a {@code HEADERS} frame followed by the hit's body in {@code DATA}
 * frames (or {@code END_STREAM} on the headers for a {@code HEAD} and a {@code 304}).
 */
public final class Http2HitHeaders {

	private static final AsciiString DATE = AsciiString.cached("date");

	private static final AsciiString AGE = AsciiString.cached("age");

	private Http2HitHeaders() {
	}

	/**
	 * @param hit the hit
	 * @return its headers, owned by the caller
	 */
	public static Http2Headers of(Lookup.Hit hit) {
		Http2Headers cached = hit.representation().http2Headers();
		Http2Headers headers = new DefaultHttp2Headers(false, cached.size() + 2);
		headers.add(cached);
		return withDateAndAge(headers, hit.ageSeconds());
	}

	/**
	 * @param notModified the answer
	 * @return its {@code 304} headers, owned by the caller
	 */
	public static Http2Headers of(Lookup.NotModified notModified) {
		Http2Headers headers = new DefaultHttp2Headers(false, 8);
		headers.status(AsciiString.cached("304"));
		notModified.entry().forEachHeader(ContentCoding.IDENTITY, (name, value) -> {
			if (CachedResponse.repeatedIn304(name)) {
				headers.add(AsciiString.of(PageKeys.lower(name)), value);
			}
		});
		return withDateAndAge(headers, notModified.ageSeconds());
	}

	private static Http2Headers withDateAndAge(Http2Headers headers, long ageSeconds) {
		headers.set(DATE, HttpDates.format(System.currentTimeMillis()));
		headers.setLong(AGE, Math.max(0, ageSeconds));
		return headers;
	}

}
