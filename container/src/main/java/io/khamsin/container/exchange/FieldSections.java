package io.khamsin.container.exchange;

import java.util.Map;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;

/**
 * The field sections of HTTP/2 and HTTP/3 (pseudo-header fields first, names in lower case) as the bridge's Netty
 * HTTP messages and back, for both protocols alike: a request head keeps the client's fields and nothing added, and
 * a response head loses the fields both protocols forbid.
 */
public final class FieldSections {

	// The protocols' decoders have validated every name and value: no second pass.
	private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

	private static final String COOKIE_SEPARATOR = "; ";

	private static final AsciiString TRAILERS = AsciiString.cached("trailers");

	private FieldSections() {
	}

	/**
	 * The request head of a request's field section (RFC 9113, section 8.3.1; RFC 9114, section 4.3.1):
	 * {@code :authority} as the {@code Host} header, the cookie fields joined in one (RFC 9113, section 8.2.3;
	 * RFC 9114, section 4.2.1).
	 * @param version the version the request says it came in, as access logs write it
	 * @param method {@code :method}
	 * @param authority {@code :authority}, or {@code null}
	 * @param path {@code :path}, or {@code null} (CONNECT)
	 * @param fields the whole field section; pseudo-header fields are skipped
	 * @return the request, or {@code null} without {@code :method}
	 */
	public static HttpRequest request(HttpVersion version, CharSequence method, CharSequence authority,
			CharSequence path, Iterable<Map.Entry<CharSequence, CharSequence>> fields) {
		if (method == null) {
			return null;
		}
		HttpHeaders headers = HEADERS.newHeaders();
		StringBuilder cookies = null;
		String cookie = null;
		for (Map.Entry<CharSequence, CharSequence> field : fields) {
			CharSequence name = field.getKey();
			if (name.length() > 0 && name.charAt(0) == ':') {
				continue;
			}
			if (HttpHeaderNames.COOKIE.contentEquals(name)) {
				if (cookie == null) {
					cookie = field.getValue().toString();
				}
				else {
					if (cookies == null) {
						cookies = new StringBuilder(cookie);
					}
					cookies.append(COOKIE_SEPARATOR).append(field.getValue());
				}
				continue;
			}
			headers.add(name, field.getValue());
		}
		if (cookie != null) {
			headers.set(HttpHeaderNames.COOKIE, (cookies != null) ? cookies.toString() : cookie);
		}
		if (authority != null) {
			headers.set(HttpHeaderNames.HOST, authority);
		}
		// CONNECT names its target in :authority alone (RFC 9113, section 8.5; RFC 9114, section 4.4).
		String target = (path != null) ? path.toString() : (authority != null) ? authority.toString() : "";
		return new DefaultHttpRequest(version, HttpMethod.valueOf(method.toString()), target, headers);
	}

	/**
	 * Whether a response field may not be sent over HTTP/2 or HTTP/3, which carry no connection-specific fields
	 * (RFC 9113, section 8.2.2; RFC 9114, section 4.2): {@code Connection} and those it names, {@code Keep-Alive},
	 * {@code Proxy-Connection}, {@code Transfer-Encoding}, {@code Upgrade}, and {@code TE} other than
	 * {@code trailers}.
	 * @param name the field's name, in lower case
	 * @param value its value
	 * @param head the head it is part of, for the names {@code Connection} lists
	 * @return whether to leave it out
	 */
	public static boolean connectionSpecific(AsciiString name, CharSequence value, HttpHeaders head) {
		if (HttpHeaderNames.CONNECTION.contentEquals(name) || HttpHeaderNames.KEEP_ALIVE.contentEquals(name)
				|| HttpHeaderNames.PROXY_CONNECTION.contentEquals(name)
				|| HttpHeaderNames.TRANSFER_ENCODING.contentEquals(name) || HttpHeaderNames.UPGRADE.contentEquals(name)) {
			return true;
		}
		if (HttpHeaderNames.TE.contentEquals(name)) {
			return !TRAILERS.contentEqualsIgnoreCase(value);
		}
		return head.containsValue(HttpHeaderNames.CONNECTION, name, true);
	}

}
