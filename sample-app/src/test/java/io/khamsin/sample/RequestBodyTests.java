package io.khamsin.sample;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request bodies framed by hand on a plain socket: chunked transfer coding (RFC 9112 section 7.1) and
 * {@code Expect: 100-continue} (RFC 9110 section 10.1.1).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestBodyTests {

	@ParameterizedTest
	@EnumSource
	void chunkedRequestBodyIsReadWhole(Container container) throws Exception {
		byte[] body = new byte[200_000];
		new Random(7).nextBytes(body);
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		request.writeBytes(("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
				+ "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
		// Chunks of uneven sizes, one with an extension, then the last chunk and an empty trailer section.
		int[] sizes = { 1, 4096, 65_536, 100_000, 30_367 };
		int offset = 0;
		for (int i = 0; i < sizes.length; i++) {
			String extension = (i == 2) ? ";note=\"ignored\"" : "";
			String sizeLine = Integer.toHexString(sizes[i]) + extension + "\r\n";
			request.writeBytes(sizeLine.getBytes(StandardCharsets.ISO_8859_1));
			request.write(body, offset, sizes[i]);
			request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
			offset += sizes[i];
		}
		request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response response = connection.send(request.toByteArray()).read();
			assertThat(response.status()).isEqualTo(200);
			assertReceipt(response, body);
			// The connection is still in step: the next request on it is answered.
			assertThat(connection.send(Requests.get("/plaintext")).read().bodyText()).isEqualTo("Hello, World!");
		}
	}

	@ParameterizedTest
	@EnumSource
	void expectContinueIsAnsweredBeforeTheBodyIsSent(Container container) throws Exception {
		byte[] body = "a body the client holds back until it may send it".getBytes(StandardCharsets.UTF_8);
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response interim = connection
				.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: "
						+ body.length + "\r\nExpect: 100-continue\r\n\r\n")
				.read();
			assertThat(interim.status()).isEqualTo(100);
			RawHttpConnection.Response response = connection.send(body).read();
			assertThat(response.status()).isEqualTo(200);
			assertReceipt(response, body);
		}
	}

	private static void assertReceipt(RawHttpConnection.Response response, byte[] body) {
		DocumentContext receipt = JsonPath.parse(response.bodyText());
		assertThat(receipt.read("$.bytes", Long.class)).isEqualTo(body.length);
		assertThat(receipt.read("$.sha256", String.class)).isEqualTo(Digests.sha256(body));
	}

}
