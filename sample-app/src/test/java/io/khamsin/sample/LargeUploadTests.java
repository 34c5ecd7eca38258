package io.khamsin.sample;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A large body streamed by the JDK HTTP client (chunked, from a generated stream) to a handler that reads slower
 * than the client writes: every byte arrives, in order. That the container holds it back in bounded memory is
 * checked by the engine's own tests.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeUploadTests {

	private static final long SIZE = Long.getLong("sample.it.upload-bytes", 256L * 1024 * 1024);

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void largeUploadReachesASlowReaderWhole(Container container) throws Exception {
		MessageDigest sent = Digests.sha256();
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/upload/slow"))
					.header("Content-Type", "application/octet-stream")
					.POST(HttpRequest.BodyPublishers
						.ofInputStream(() -> new DigestInputStream(new RandomBytes(SIZE), sent)))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		DocumentContext receipt = JsonPath.parse(response.body());
		assertThat(receipt.read("$.bytes", Long.class)).isEqualTo(SIZE);
		assertThat(receipt.read("$.sha256", String.class)).isEqualTo(HexFormat.of().formatHex(sent.digest()));
	}

	/**
	 * A stream of pseudo-random bytes of a given length, generated as it is read.
	 */
	private static final class RandomBytes extends InputStream {

		private final SplittableRandom random = new SplittableRandom();

		private long remaining;

		RandomBytes(long length) {
			this.remaining = length;
		}

		@Override
		public int read() {
			byte[] one = new byte[1];
			return (read(one, 0, 1) == -1) ? -1 : (one[0] & 0xff);
		}

		@Override
		public int read(byte[] buffer, int offset, int length) {
			if (this.remaining == 0) {
				return -1;
			}
			int count = (int) Math.min(length, this.remaining);
			for (int i = 0; i < count; i += 8) {
				long value = this.random.nextLong();
				for (int j = i; j < Math.min(i + 8, count); j++) {
					buffer[offset + j] = (byte) value;
					value >>>= 8;
				}
			}
			this.remaining -= count;
			return count;
		}

	}

}
