package io.khamsin.container.http3;

import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.util.AsciiString;

import io.khamsin.container.cache.CachedHead;
import io.khamsin.container.cache.HeadEncoding;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.engine.DateHeader;

/**
 * The HTTP/3 field sections of page-cache answers, as HTTP/2's header blocks are made: the head encoded once per
 * representation, without {@code date} and {@code age}, copied per answer with both added.
 */
final class Http3HitHeaders {

	private static final AsciiString DATE = AsciiString.cached("date");

	private static final AsciiString AGE = AsciiString.cached("age");

	private static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");

	/** A cached head as an HTTP/3 field section, names in lower case, without {@code date} and {@code age}. */
	static final HeadEncoding<Http3Headers> HEADERS = new HeadEncoding<>() {

		@Override
		protected Http3Headers encode(CachedHead head) {
			DefaultHttp3Headers headers = new DefaultHttp3Headers(false, 16);
			headers.status(AsciiString.of(Integer.toString(head.status())));
			head.forEachHeader((name, value) -> headers.add(AsciiString.of(name).toLowerCase(), value));
			if (head.contentLength() >= 0) {
				headers.setInt(CONTENT_LENGTH, head.contentLength());
			}
			return headers;
		}

	};

	private Http3HitHeaders() {
	}

	static Http3Headers of(Lookup.Hit hit) {
		return withDateAndAge(hit.representation().head(), hit.ageSeconds());
	}

	static Http3Headers of(Lookup.NotModified notModified) {
		return withDateAndAge(notModified.entry().notModifiedHead(), notModified.ageSeconds());
	}

	private static Http3Headers withDateAndAge(CachedHead head, long ageSeconds) {
		Http3Headers cached = head.encoded(HEADERS);
		Http3Headers headers = new DefaultHttp3Headers(false, cached.size() + 2);
		headers.add(cached);
		headers.set(DATE, DateHeader.now());
		headers.setLong(AGE, Math.max(0, ageSeconds));
		return headers;
	}

}
