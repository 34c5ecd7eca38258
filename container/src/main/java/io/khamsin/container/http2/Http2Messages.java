package io.khamsin.container.http2;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.HttpConversionUtil;

import io.khamsin.container.exchange.FieldSections;

/**
 * HTTP/2 header blocks as the bridge's Netty HTTP messages, both ways, without
 * {@code Http2StreamFrameToHttpObjectCodec}: a request head keeps the client's fields and nothing added (that codec
 * adds {@code x-http2-scheme}, {@code x-http2-stream-id} and {@code transfer-encoding: chunked}, which the
 * application would see, and gives a request without a body a pooled buffer of its own), and the stream's handler
 * writes frames itself, without a handler in between.
 */
final class Http2Messages {

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
		return FieldSections.request(HTTP_2, headers.method(), headers.authority(), headers.path(), headers);
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
