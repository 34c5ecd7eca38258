package io.khamsin.container.fixed;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AsciiString;

/**
 * The configured {@link FixedResponse}s, prepared once when the server starts: looked up by path for every
 * protocol, each protocol encoding every entry once in its own form (HTTP/1.1 bytes, HTTP/2 header blocks) and
 * finding it again by {@link Entry#index()}, with no map of its own.
 */
public final class FixedResponseTable {

	private static final FixedResponseTable NONE = new FixedResponseTable(List.of(), Map.of(), null);

	private final List<Entry> entries;

	private final Map<String, Entry> byPath;

	private final Entry overload;

	private FixedResponseTable(List<Entry> entries, Map<String, Entry> byPath, Entry overload) {
		this.entries = entries;
		this.byPath = byPath;
		this.overload = overload;
	}

	/**
	 * Prepare the configured fixed responses.
	 * @param fixedResponses the fixed responses
	 * @param serverHeader the {@code Server} header every response carries, or {@code null}
	 * @param altSvc the {@code Alt-Svc} header every response carries (HTTP/3 is on), or {@code null}
	 * @return the table
	 */
	public static FixedResponseTable of(List<FixedResponse> fixedResponses, String serverHeader, String altSvc) {
		return of(fixedResponses, null, serverHeader, altSvc);
	}

	/**
	 * Prepare the configured fixed responses and the answer to a request refused because the server is past its
	 * capacity, which no path finds.
	 * @param fixedResponses the fixed responses
	 * @param overload the refusal of a request when the server is past its capacity, or {@code null} for none
	 * @param serverHeader the {@code Server} header every response carries, or {@code null}
	 * @param altSvc the {@code Alt-Svc} header every response carries (HTTP/3 is on), or {@code null}
	 * @return the table
	 */
	public static FixedResponseTable of(List<FixedResponse> fixedResponses, FixedResponse overload,
			String serverHeader, String altSvc) {
		if (fixedResponses.isEmpty() && overload == null) {
			return NONE;
		}
		List<Entry> entries = new ArrayList<>();
		Map<String, Entry> byPath = new HashMap<>();
		for (FixedResponse fixed : fixedResponses) {
			Entry entry = new Entry(entries.size(), fixed, serverHeader, altSvc);
			entries.add(entry);
			byPath.put(fixed.path(), entry);
		}
		Entry overloadEntry = null;
		if (overload != null) {
			overloadEntry = new Entry(entries.size(), overload, serverHeader, altSvc);
			entries.add(overloadEntry);
		}
		return new FixedResponseTable(List.copyOf(entries), byPath, overloadEntry);
	}

	/**
	 * The answer to a request refused because the server is past its capacity.
	 * @return the entry, or {@code null} when the server has no admission control
	 */
	public Entry overload() {
		return this.overload;
	}

	/** @return every entry, in the order of their indexes */
	public List<Entry> entries() {
		return this.entries;
	}

	/**
	 * The fixed response for a request without a body, if there is one: a {@code GET} or {@code HEAD} of a
	 * configured path, in origin form, the query ignored.
	 * @param request the request head
	 * @return the entry, or {@code null} when the application answers
	 */
	public Entry lookup(HttpRequest request) {
		if (this.byPath.isEmpty()) {
			return null;
		}
		HttpMethod method = request.method();
		if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
			return null;
		}
		String uri = request.uri();
		int query = uri.indexOf('?');
		return this.byPath.get((query < 0) ? uri : uri.substring(0, query));
	}

	/**
	 * One fixed response, as every protocol encodes it: status, headers in order, and body.
	 */
	public static final class Entry {

		private final int index;

		private final FixedResponse response;

		private final byte[] body;

		private final String serverHeader;

		private final String contentLength;

		private final Map<String, String> headers;

		Entry(int index, FixedResponse response, String serverHeader, String altSvc) {
			this.index = index;
			this.response = response;
			this.body = response.body();
			this.serverHeader = serverHeader;
			if (altSvc != null && response.headers().keySet().stream().noneMatch("Alt-Svc"::equalsIgnoreCase)) {
				Map<String, String> headers = new LinkedHashMap<>(response.headers());
				headers.put("Alt-Svc", altSvc);
				this.headers = Collections.unmodifiableMap(headers);
			}
			else {
				this.headers = response.headers();
			}
			this.contentLength = hasBody(response.status()) ? Integer.toString(this.body.length) : null;
		}

		private static boolean hasBody(int status) {
			return status != 204 && status != 304;
		}

		/** @return its place in the table, for a protocol's own array of encoded entries */
		public int index() {
			return this.index;
		}

		/** @return the status */
		public int status() {
			return this.response.status();
		}

		/** @return the {@code Content-Type}, or {@code null} */
		public String contentType() {
			return this.response.contentType();
		}

		/** @return the {@code Content-Length}, or {@code null} for a status that has no body (204, 304) */
		public String contentLength() {
			return this.contentLength;
		}

		/** @return the {@code Server} header, or {@code null} */
		public String serverHeader() {
			return this.serverHeader;
		}

		/** @return the other headers, in order ({@code Alt-Svc} last when the server announces HTTP/3) */
		public Map<String, String> headers() {
			return this.headers;
		}

		/**
		 * Every field of the head after the status, as HTTP/2 and HTTP/3 write them (names in lower case):
		 * {@code content-type}, {@code content-length}, {@code server}, then the other headers in order.
		 * @param field takes each name and value
		 */
		public void forEachField(BiConsumer<AsciiString, String> field) {
			if (contentType() != null) {
				field.accept(HttpHeaderNames.CONTENT_TYPE, contentType());
			}
			if (this.contentLength != null) {
				field.accept(HttpHeaderNames.CONTENT_LENGTH, this.contentLength);
			}
			if (this.serverHeader != null) {
				field.accept(HttpHeaderNames.SERVER, this.serverHeader);
			}
			this.headers.forEach((name, value) -> field.accept(AsciiString.of(name.toLowerCase(Locale.ROOT)), value));
		}

		/** @return the status code as text, as a pseudo-header field carries it */
		public AsciiString statusText() {
			return AsciiString.of(Integer.toString(status()));
		}

		/** @return the body, which the caller must not change */
		public byte[] body() {
			return this.body;
		}

		@Override
		public String toString() {
			return this.response.toString();
		}

	}

}
