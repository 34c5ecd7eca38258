package io.khamsin.container.fixed;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An answer khamsin gives itself, without entering the application, to {@code GET} and {@code HEAD} requests for
 * one path: health and status routes, {@code robots.txt}, and the like. The response is encoded once when the
 * server starts; each request only adds the {@code Date} header.
 * <p>
 * The path is matched exactly against the request target's path (the query string is ignored); requests with a
 * body, with other methods, or in absolute form go to the application as usual.
 *
 * @param path the request path, starting with {@code /}
 * @param status the status code, 200 to 599 (a 204 or 304 has no body)
 * @param contentType the {@code Content-Type}, or {@code null} for none
 * @param body the body (a copy is kept)
 * @param headers more response headers, in order (not {@code Content-Length}, {@code Date}, {@code Connection} or
 * {@code Transfer-Encoding}, which khamsin writes)
 */
public record FixedResponse(String path, int status, String contentType, byte[] body, Map<String, String> headers) {

	private static final Set<String> RESERVED = Set.of("content-length", "date", "connection", "transfer-encoding");

	public FixedResponse {
		if (path == null || !path.startsWith("/") || path.indexOf('?') >= 0 || path.indexOf('#') >= 0) {
			throw new IllegalArgumentException("A fixed response's path must start with '/' and have no query, was '"
					+ path + "'");
		}
		requireVisible("path", path);
		if (status < 200 || status > 599) {
			throw new IllegalArgumentException("A fixed response's status must be between 200 and 599, was " + status
					+ " (for " + path + ")");
		}
		body = (body != null) ? body.clone() : new byte[0];
		if ((status == 204 || status == 304) && body.length > 0) {
			throw new IllegalArgumentException("A fixed response with status " + status + " has no body (for " + path
					+ ")");
		}
		if (contentType != null) {
			requireValue("Content-Type", contentType, path);
		}
		Map<String, String> copy = new LinkedHashMap<>();
		if (headers != null) {
			headers.forEach((name, value) -> {
				if (name == null || name.isEmpty() || !isToken(name)) {
					throw new IllegalArgumentException("A fixed response's header name '" + name
							+ "' is not a valid token (for " + path + ")");
				}
				if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
					throw new IllegalArgumentException("A fixed response may not set " + name
							+ ": khamsin writes it (for " + path + ")");
				}
				requireValue(name, value, path);
				copy.put(name, value);
			});
		}
		headers = copy.isEmpty() ? Map.of() : Collections.unmodifiableMap(copy);
	}

	/**
	 * A fixed response with a text body.
	 * @param path the request path
	 * @param status the status code
	 * @param contentType the content type, or {@code null} for none
	 * @param body the body, encoded as UTF-8
	 * @return the fixed response
	 */
	public static FixedResponse of(String path, int status, String contentType, String body) {
		return new FixedResponse(path, status, contentType,
				(body != null) ? body.getBytes(StandardCharsets.UTF_8) : null, Map.of());
	}

	/**
	 * The body.
	 * @return a copy of the body
	 */
	@Override
	public byte[] body() {
		return this.body.clone();
	}

	/**
	 * Whether another fixed response has the same path, status, content type, body bytes and headers.
	 * @param other the other object
	 * @return {@code true} if the two are equal
	 */
	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof FixedResponse that && this.status == that.status
				&& this.path.equals(that.path) && Objects.equals(this.contentType, that.contentType)
				&& Arrays.equals(this.body, that.body) && this.headers.equals(that.headers));
	}

	/**
	 * A hash code of the path, status, content type, body bytes and headers.
	 * @return the hash code
	 */
	@Override
	public int hashCode() {
		return Objects.hash(this.path, this.status, this.contentType, Arrays.hashCode(this.body), this.headers);
	}

	/**
	 * The response as text, with the length of its body rather than its bytes.
	 * @return the text
	 */
	@Override
	public String toString() {
		return "FixedResponse[path=" + this.path + ", status=" + this.status + ", contentType=" + this.contentType
				+ ", body=" + this.body.length + " bytes, headers=" + this.headers + "]";
	}

	private static void requireVisible(String what, String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c <= ' ' || c >= 0x7f) {
				throw new IllegalArgumentException("A fixed response's " + what
						+ " must be visible ASCII without spaces, was '" + value + "'");
			}
		}
	}

	private static void requireValue(String name, String value, String path) {
		if (value == null) {
			throw new IllegalArgumentException("A fixed response's " + name + " header has no value (for " + path + ")");
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < ' ' && c != '\t') || c >= 0x7f) {
				throw new IllegalArgumentException("A fixed response's " + name
						+ " header must be printable ASCII (for " + path + ")");
			}
		}
	}

	private static boolean isToken(String name) {
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c <= ' ' || c >= 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
				return false;
			}
		}
		return true;
	}

}
