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

/**
 * Checks a target's answer on a route before it is measured, with the JDK's HTTP client (independent of the load
 * generator): status 200, the content type, and the body bytes. A target that answers differently is excluded
 * from the scenario, with the reason in the report.
 */
public final class IntegrityCheck {

	private static final ObjectMapper json = new ObjectMapper();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/**
	 * Check {@code route} on the server at {@code address}.
	 * @return the outcome
	 */
	public Result check(InetSocketAddress address, Route route) {
		URI uri = URI.create("http://" + address.getHostString() + ":" + address.getPort() + route.path());
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
			response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (Exception ex) {
			return Result.failed(route, route.method() + " " + route.path() + " failed: " + ex);
		}
		return verify(route, response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
				response.body());
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
