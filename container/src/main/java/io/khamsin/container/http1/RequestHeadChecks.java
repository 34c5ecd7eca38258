package io.khamsin.container.http1;

import java.util.Iterator;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The checks of a request head that Netty's decoder leaves to the server, each of which closes a way for a proxy in
 * front of khamsin and khamsin to disagree about a request: a transfer coding other than {@code chunked}, which
 * khamsin does not implement, so that it cannot frame or decode the body as the client meant it (RFC 9112, section
 * 6.1: 501); and more than one {@code Host} field line (RFC 9112, section 3.2: 400). The decoder already refuses
 * {@code chunked} that is not the final coding or comes twice, and, while
 * {@code io.netty.handler.codec.http.rfc9112TransferEncoding} is left at its default ({@code true}),
 * {@code Transfer-Encoding} in HTTP/1.0 and {@code Transfer-Encoding} together with {@code Content-Length}; the
 * smuggling corpus ({@code DirectSmugglingTests}) fails if an upgrade of Netty stops doing so.
 */
final class RequestHeadChecks {

	private static final Logger logger = LoggerFactory.getLogger(RequestHeadChecks.class);

	private RequestHeadChecks() {
	}

	/**
	 * Check a request head.
	 * @param request the head, decoded
	 * @param guards the counters of the guard that trips
	 * @return {@code null}, or the status to refuse the request with
	 */
	static HttpResponseStatus refusal(HttpRequest request, GuardCounters guards) {
		HttpHeaders headers = request.headers();
		if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING) && !onlyChunked(headers)) {
			guards.increment(Guard.BAD_REQUEST);
			logger.debug("Rejecting request with Transfer-Encoding {}: only chunked is implemented: 501",
					headers.getAll(HttpHeaderNames.TRANSFER_ENCODING));
			return HttpResponseStatus.NOT_IMPLEMENTED;
		}
		Iterator<? extends CharSequence> hosts = headers.valueCharSequenceIterator(HttpHeaderNames.HOST);
		if (hosts.hasNext() && hosts.next() != null && hosts.hasNext()) {
			guards.increment(Guard.BAD_REQUEST);
			logger.debug("Rejecting request with more than one Host field line: 400");
			return HttpResponseStatus.BAD_REQUEST;
		}
		return null;
	}

	/** @return whether every element of the {@code Transfer-Encoding} field lines is {@code chunked} */
	private static boolean onlyChunked(HttpHeaders headers) {
		Iterator<? extends CharSequence> values = headers.valueCharSequenceIterator(HttpHeaderNames.TRANSFER_ENCODING);
		while (values.hasNext()) {
			CharSequence value = values.next();
			int start = 0;
			while (start <= value.length()) {
				int comma = indexOf(value, ',', start);
				int from = start;
				int to = comma;
				while (from < to && isOptionalWhitespace(value.charAt(from))) {
					from++;
				}
				while (to > from && isOptionalWhitespace(value.charAt(to - 1))) {
					to--;
				}
				// A list may hold empty elements, which a recipient ignores (RFC 9110, section 5.6.1).
				if (to > from && !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(value.subSequence(from, to))) {
					return false;
				}
				start = comma + 1;
			}
		}
		return true;
	}

	private static int indexOf(CharSequence value, char c, int from) {
		for (int i = from; i < value.length(); i++) {
			if (value.charAt(i) == c) {
				return i;
			}
		}
		return value.length();
	}

	private static boolean isOptionalWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

}
