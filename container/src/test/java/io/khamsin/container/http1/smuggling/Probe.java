package io.khamsin.container.http1.smuggling;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.khamsin.container.http1.smuggling.SmugglingCorpus.Case;
import io.khamsin.container.http1.smuggling.SmugglingCorpus.Protocol;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.RawHttpConnection.Response;

/**
 * Sends a corpus case to a server (khamsin, or a proxy in front of it) and collects what comes back: for HTTP/1.1
 * the case's bytes, then a marker request on the same connection, then every response until the connection closes;
 * for HTTP/2 the answer on the case's stream.
 */
final class Probe {

	private Probe() {
	}

	/**
	 * Send a case.
	 * @param port where to
	 * @param testCase the case
	 * @param where the name of the receiver, part of the paths: {@code /c/<where>/<id>}, {@code /marker/<where>/<id>}
	 * @param timeoutMillis how long to wait for each read
	 * @return what came back
	 */
	static Result send(int port, Case testCase, String where, int timeoutMillis) throws IOException {
		String path = path(testCase, where);
		if (testCase.protocol() == Protocol.H2) {
			try (RawH2Connection connection = new RawH2Connection(port, timeoutMillis)) {
				connection.send(testCase.h2Fields(path), testCase.h2Data());
				RawH2Connection.Answer answer = connection.read();
				List<Response> responses = (answer.status() != 0)
						? List.of(new Response(Integer.toString(answer.status()), answer.status(), Map.of(),
								answer.body().getBytes(StandardCharsets.ISO_8859_1), answer.end() == null))
						: List.of();
				return new Result(responses, answer.end(), answer.toString());
			}
		}
		String marker = "GET " + markerPath(testCase, where) + " HTTP/1.1\r\nHost: k\r\nConnection: close\r\n\r\n";
		try (RawHttpConnection connection = new RawHttpConnection(port)) {
			connection.socket().setSoTimeout(timeoutMillis);
			try {
				connection.send(testCase.h1Bytes(path));
				connection.send(marker);
			}
			catch (IOException ex) {
				// The server closed the connection before all was sent: what it answered is still to be read.
			}
			List<Response> responses = new ArrayList<>();
			boolean head = testCase.h1Bytes(path)[0] == 'H';
			String end;
			while (true) {
				try {
					Response response = connection.read(head && responses.isEmpty());
					if (response.status() / 100 != 1) {
						responses.add(response);
					}
				}
				catch (SocketTimeoutException ex) {
					end = "timeout";
					break;
				}
				catch (IOException ex) {
					end = "closed";
					break;
				}
				catch (RuntimeException ex) {
					// Not an HTTP/1.x response: nginx answers an HTTP/0.9 request line with a bare body.
					end = "a response without a status line";
					break;
				}
			}
			String summary = responses.stream().map((r) -> Integer.toString(r.status())).collect(Collectors.joining(" + "));
			return new Result(responses, end, summary.isEmpty() ? end : summary + ", " + end);
		}
	}

	static String path(Case testCase, String where) {
		return "/c/" + where + "/" + testCase.id();
	}

	static String markerPath(Case testCase, String where) {
		return "/marker/" + where + "/" + testCase.id();
	}

	/**
	 * What came back.
	 * @param responses the final responses received, in order
	 * @param end how the connection or stream ended: {@code closed}, {@code timeout}, {@code RST_STREAM <code>},
	 * {@code GOAWAY <code>}, or {@code null} for an HTTP/2 stream that ended well
	 * @param summary the statuses and the end, for the results table
	 */
	record Result(List<Response> responses, String end, String summary) {

		boolean closed() {
			return "closed".equals(this.end);
		}

		/** @return the response bodies that are an application's echo, as text */
		List<String> echoes() {
			return this.responses.stream()
				.filter((response) -> response.status() == 200 && response.body().length > 0)
				.map(Response::bodyText)
				.toList();
		}

	}

}
