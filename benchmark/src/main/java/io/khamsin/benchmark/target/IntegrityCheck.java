package io.khamsin.benchmark.target;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.khamsin.benchmark.load.H3Load;

/**
 * Checks a target's answer on a route before it is measured, with a client independent of the load generator (the
 * JDK's for HTTP/1.1, in cleartext and over TLS, where it must be TLS 1.3; curl for HTTP/2, which must be what was
 * spoken): status 200, the content type, and the body bytes. A target that answers differently is excluded from
 * the scenario, with the reason in the report.
 */
public final class IntegrityCheck {

	private static final ObjectMapper json = new ObjectMapper();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private HttpClient tlsClient;

	/**
	 * Check {@code route} on the server at {@code address}, in cleartext HTTP/1.1.
	 * @return the outcome
	 */
	public Result check(InetSocketAddress address, Route route) {
		return check(address, route, Wire.HTTP1);
	}

	/**
	 * Check {@code route} on the server at {@code address}, on {@code wire}.
	 * @return the outcome
	 */
	public Result check(InetSocketAddress address, Route route, Wire wire) {
		if (wire.http3()) {
			if (route.requestBody().length > 0) {
				return Result.failed(route, "the HTTP/3 check sends GET only, not " + route.method());
			}
			H3Load.Answer answer = H3Load.fetch(address, route.path());
			if (answer.status() < 0) {
				return Result.failed(route, route.method() + " " + route.path() + ": no answer over HTTP/3");
			}
			return verify(route, answer.status(), answer.contentType(), answer.body());
		}
		if (wire.http2()) {
			Curl.Answer answer = Curl.get(address, route, wire);
			if (answer.status() != 0 && !answer.httpVersion().equals("2")) {
				return Result.failed(route, route.method() + " " + route.path() + ": answered over HTTP/"
						+ answer.httpVersion() + ", not HTTP/2");
			}
			return verify(route, answer.status(), answer.contentType(), answer.body());
		}
		URI uri = URI.create(wire.scheme() + "://" + address.getHostString() + ":" + address.getPort() + route.path());
		HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
		if (route.requestBody().length > 0) {
			request.method(route.method(), HttpRequest.BodyPublishers.ofByteArray(route.requestBody()))
				.header("Content-Type", route.contentType());
		}
		else {
			request.method(route.method(), HttpRequest.BodyPublishers.noBody());
		}
		HttpResponse<byte[]> response;
		try {
			response = client(wire).send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (Exception ex) {
			return Result.failed(route, route.method() + " " + route.path() + " failed: " + ex);
		}
		String protocol = response.sslSession().map(javax.net.ssl.SSLSession::getProtocol).orElse(null);
		if (wire.tls() && !"TLSv1.3".equals(protocol)) {
			return Result.failed(route, route.method() + " " + route.path() + ": TLS " + protocol + ", not TLSv1.3");
		}
		return verify(route, response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
				response.body());
	}

	private HttpClient client(Wire wire) {
		if (!wire.tls()) {
			return this.client;
		}
		if (this.tlsClient == null) {
			this.tlsClient = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(5))
				.sslContext(TrustAll.context())
				.build();
		}
		return this.tlsClient;
	}

	/**
	 * Verify an answer already received.
	 * @return the outcome
	 */
	public static Result verify(Route route, int status, String contentType, byte[] body) {
		String what = route.method() + " " + route.path() + ": ";
		if (status != 200) {
			return Result.failed(route, what + "status " + status + " (expected 200)");
		}
		String mediaType = (contentType != null) ? contentType.split(";")[0].trim() : null;
		if (mediaType == null || !mediaType.equalsIgnoreCase(route.contentType())) {
			return Result.failed(route, what + "content type " + contentType + " (expected " + route.contentType() + ")");
		}
		byte[] expected = route.expected().bytes();
		if (route.expected().json()) {
			if (!sameJson(body, expected)) {
				return Result.failed(route, what + "body is not the expected JSON" + preview(body));
			}
		}
		else if (route.expected().prefix()) {
			if (body.length < expected.length || !Arrays.equals(body, 0, expected.length, expected, 0, expected.length)) {
				return Result.failed(route, what + "body does not start as expected" + preview(body));
			}
		}
		else if (!Arrays.equals(body, expected)) {
			return Result.failed(route, what + "body of " + body.length + " bytes differs from the expected "
					+ expected.length + " bytes" + preview(body));
		}
		return new Result(route, true, null, body.length);
	}

	private static String preview(byte[] body) {
		String text = new String(body, 0, Math.min(body.length, 60), java.nio.charset.StandardCharsets.ISO_8859_1);
		return " (starts: \"" + text.replaceAll("[^\\x20-\\x7e]", "?") + "\")";
	}

	private static boolean sameJson(byte[] body, byte[] sent) {
		try {
			JsonNode answer = json.readTree(body);
			return answer != null && answer.equals(json.readTree(sent));
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * The outcome of a check.
	 *
	 * @param route the route
	 * @param passed whether the answer was right
	 * @param reason what was wrong, or {@code null}
	 * @param bodyLength the length of the body received (the load generator then expects it on every answer)
	 */
	public record Result(Route route, boolean passed, String reason, long bodyLength) {

		static Result failed(Route route, String reason) {
			return new Result(route, false, reason, -1);
		}

	}

}
