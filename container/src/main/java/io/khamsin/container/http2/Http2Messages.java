package io.khamsin.container.http2;

import java.util.Map;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.HttpConversionUtil;

/**
 * HTTP/2 header blocks as the bridge's Netty HTTP messages, both ways, without
 * {@code Http2StreamFrameToHttpObjectCodec}: a request head keeps the client's fields and nothing added (that codec
 * adds {@code x-http2-scheme}, {@code x-http2-stream-id} and {@code transfer-encoding: chunked}, which the
 * application would see, and gives a request without a body a pooled buffer of its own), and the stream's handler
 * writes frames itself, without a handler in between.
 */
final class Http2Messages {

	// The decoder has validated every name and value (validateHeaders): no second pass.
	private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

	private static final String COOKIE_SEPARATOR = "; ";

	/** The version a request on an HTTP/2 stream says it came in, as access logs write it. */
	static final HttpVersion HTTP_2 = new HttpVersion("HTTP/2.0", true);

	private Http2Messages() {
	}

	/**
	 * The request head of a stream's first header block (RFC 9113, section 8.3.1), in version {@code HTTP/2.0}:
	 * {@code :authority} as the {@code Host} header, the cookie fields joined in one (section 8.2.3).
	 * @param headers the header block
	 * @return the request, or {@code null} without {@code :method}
	 */
	static HttpRequest request(Http2Headers headers) {
		CharSequence method = headers.method();
		if (method == null) {
			return null;
		}
		CharSequence authority = headers.authority();
		CharSequence path = headers.path();
		HttpHeaders fields = HEADERS.newHeaders();
		StringBuilder cookies = null;
		String cookie = null;
		for (Map.Entry<CharSequence, CharSequence> header : headers) {
			CharSequence name = header.getKey();
			if (name.length() > 0 && name.charAt(0) == ':') {
				continue;
			}
			if (HttpHeaderNames.COOKIE.contentEquals(name)) {
				if (cookie == null) {
					cookie = header.getValue().toString();
				}
				else {
					if (cookies == null) {
						cookies = new StringBuilder(cookie);
					}
					cookies.append(COOKIE_SEPARATOR).append(header.getValue());
				}
				continue;
			}
			fields.add(name, header.getValue());
		}
		if (cookie != null) {
			fields.set(HttpHeaderNames.COOKIE, (cookies != null) ? cookies.toString() : cookie);
		}
		if (authority != null) {
			fields.set(HttpHeaderNames.HOST, authority);
		}
		// CONNECT names its target in :authority alone (RFC 9113, section 8.5).
		String target = (path != null) ? path.toString() : (authority != null) ? authority.toString() : "";
		return new DefaultHttpRequest(HTTP_2, HttpMethod.valueOf(method.toString()), target, fields);
	}

	/**
	 * The header block of a response head: {@code :status} and its fields, names in lower case, without the fields
	 * HTTP/2 forbids (RFC 9113, section 8.2.2).
	 * @param response the response head
	 * @return the header block
	 */
	static Http2Headers headers(HttpResponse response) {
		Http2Headers headers = new DefaultHttp2Headers(false, response.headers().size() + 1);
		headers.status(response.status().codeAsText());
		HttpConversionUtil.toHttp2Headers(response.headers(), headers);
		return headers;
	}

}
