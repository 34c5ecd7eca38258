package io.khamsin.container.http3;

import java.util.Iterator;
import java.util.Map;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.util.AsciiString;

import io.khamsin.container.exchange.FieldSections;

/**
 * HTTP/3 field sections as the bridge's Netty HTTP messages, both ways, as HTTP/2's are: a request head keeps the
 * client's fields and nothing added, and the stream's handler writes frames itself.
 */
final class Http3Messages {

	/** The version a request on an HTTP/3 stream says it came in, as access logs write it. */
	static final HttpVersion HTTP_3 = new HttpVersion("HTTP/3.0", true);

	private Http3Messages() {
	}

	/**
	 * The request head of a stream's first field section (RFC 9114, section 4.3.1), in version {@code HTTP/3.0}.
	 * @param headers the field section
	 * @return the request, or {@code null} without {@code :method}
	 */
	static HttpRequest request(Http3Headers headers) {
		return FieldSections.request(HTTP_3, headers.method(), headers.authority(), headers.path(), headers);
	}

	/**
	 * The field section of a response head: {@code :status} and its fields, names in lower case, without the fields
	 * HTTP/3 forbids (RFC 9114, section 4.2).
	 * @param response the response head
	 * @return the field section
	 */
	static Http3Headers headers(HttpResponse response) {
		HttpHeaders fields = response.headers();
		Http3Headers headers = new DefaultHttp3Headers(false, fields.size() + 1);
		headers.status(response.status().codeAsText());
		for (Iterator<Map.Entry<CharSequence, CharSequence>> it = fields.iteratorCharSequence(); it.hasNext();) {
			Map.Entry<CharSequence, CharSequence> field = it.next();
			AsciiString name = AsciiString.of(field.getKey()).toLowerCase();
			if (!FieldSections.connectionSpecific(name, field.getValue(), fields)) {
				headers.add(name, field.getValue());
			}
		}
		return headers;
	}

}
