package io.khamsin.container.http2;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;

import io.khamsin.container.cache.CachedHead;
import io.khamsin.container.cache.HeadEncoding;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.engine.DateHeader;

/**
 * The HTTP/2 header blocks of page-cache answers: the head encoded once per representation ({@link #HEADERS}: a
 * header list without {@code date} and {@code age}, RFC 9113 section 8.3.2), copied per answer with {@code date}
 * and {@code age} added, for a {@code HEADERS} frame followed by the hit's body in {@code DATA} frames (or
 * {@code END_STREAM} on the headers for a {@code HEAD} and a {@code 304}).
 */
final class Http2HitHeaders {

	private static final AsciiString DATE = AsciiString.cached("date");

	private static final AsciiString AGE = AsciiString.cached("age");

	private static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");

	/** A cached head as an HTTP/2 header list, field names in lower case, without {@code date} and {@code age}. */
	static final HeadEncoding<Http2Headers> HEADERS = new HeadEncoding<>() {

		@Override
		protected Http2Headers encode(CachedHead head) {
			DefaultHttp2Headers headers = new DefaultHttp2Headers(false, 16);
			headers.status(AsciiString.of(Integer.toString(head.status())));
			head.forEachHeader((name, value) -> headers.add(AsciiString.of(name).toLowerCase(), value));
			if (head.contentLength() >= 0) {
				headers.setInt(CONTENT_LENGTH, head.contentLength());
			}
			return headers;
		}

	};

	private Http2HitHeaders() {
	}

	/**
	 * @param hit the hit
	 * @return its headers, owned by the caller
	 */
	static Http2Headers of(Lookup.Hit hit) {
		return withDateAndAge(hit.representation().head(), hit.ageSeconds());
	}

	/**
	 * @param notModified the answer
	 * @return its {@code 304} headers, owned by the caller
	 */
	static Http2Headers of(Lookup.NotModified notModified) {
		return withDateAndAge(notModified.entry().notModifiedHead(), notModified.ageSeconds());
	}

	private static Http2Headers withDateAndAge(CachedHead head, long ageSeconds) {
		Http2Headers cached = head.encoded(HEADERS);
		Http2Headers headers = new DefaultHttp2Headers(false, cached.size() + 2);
		headers.add(cached);
		headers.set(DATE, DateHeader.now());
		headers.setLong(AGE, Math.max(0, ageSeconds));
		return headers;
	}

}
