package io.khamsin.benchmark.load;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * One request, encoded once, and the answer it must get: the generator writes the same bytes on every send and
 * counts a response with another status or body length as an error.
 *
 * @param method the request method
 * @param path the request target
 * @param headers extra request headers, in order
 * @param body the request body, empty for none
 * @param expectedStatus the status every response must have
 * @param expectedBodyLength the body length every response must have, or {@code -1} for any
 */
public record RequestTemplate(String method, String path, Map<String, String> headers, byte[] body,
		int expectedStatus, long expectedBodyLength) {

	public RequestTemplate {
		headers = Map.copyOf(new LinkedHashMap<>(headers));
		body = body.clone();
	}

	/**
	 * A GET of {@code path} that must answer 200 with a body of {@code expectedBodyLength} bytes.
	 */
	public static RequestTemplate get(String path, long expectedBodyLength) {
		return new RequestTemplate("GET", path, Map.of(), new byte[0], 200, expectedBodyLength);
	}

	/**
	 * A POST of {@code body} with the given content type that must answer 200 with a body of
	 * {@code expectedBodyLength} bytes (or any length for {@code -1}).
	 */
	public static RequestTemplate post(String path, String contentType, byte[] body, long expectedBodyLength) {
		return new RequestTemplate("POST", path, Map.of("Content-Type", contentType), body, 200, expectedBodyLength);
	}

	/**
	 * This request with one more header.
	 */
	public RequestTemplate withHeader(String name, String value) {
		Map<String, String> more = new LinkedHashMap<>(this.headers);
		more.put(name, value);
		return new RequestTemplate(this.method, this.path, more, this.body, this.expectedStatus,
				this.expectedBodyLength);
	}

	/**
	 * Encode the request for {@code authority} (the Host header).
	 * @return a read-only buffer to write {@code retainedDuplicate()}s of
	 */
	public ByteBuf encode(String authority) {
		StringBuilder head = new StringBuilder(128);
		head.append(this.method).append(' ').append(this.path).append(" HTTP/1.1\r\n");
		head.append("Host: ").append(authority).append("\r\n");
		this.headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		if (this.body.length > 0 || "POST".equals(this.method) || "PUT".equals(this.method)) {
			head.append("Content-Length: ").append(this.body.length).append("\r\n");
		}
		head.append("\r\n");
		byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
		ByteBuf buffer = Unpooled.directBuffer(headBytes.length + this.body.length);
		buffer.writeBytes(headBytes).writeBytes(this.body);
		return buffer.asReadOnly();
	}

}
