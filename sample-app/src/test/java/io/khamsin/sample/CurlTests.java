package io.khamsin.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * curl as an external client over HTTP/1.1 ({@code curl -sS --http1.1}); skipped, saying so, where curl is not
 * installed ({@code .ci/run} installs it).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CurlTests {

	@TempDir
	static Path temp;

	@BeforeAll
	static void curlIsInstalled() {
		assumeTrue(curlVersion() != null,
				"curl is not installed: install it (apt-get install -y curl) to run CurlTests");
	}

	@ParameterizedTest
	@EnumSource
	void curlGetsPlaintext(Container container) throws Exception {
		assertThat(curl(container.server().uri("/plaintext").toString())).isEqualTo("Hello, World!");
	}

	@ParameterizedTest
	@EnumSource
	void curlPostsAnOrderAsJson(Container container) throws Exception {
		Path order = temp.resolve("order.json");
		Files.write(order, BodiesTests.order());
		assertThat(curl("-H", "Content-Type: application/json", "--data-binary", "@" + order,
				container.server().uri("/json").toString()))
			.contains("\"orderId\":\"ord-2024-000417\"", "\"total\":220.63");
	}

	@ParameterizedTest
	@EnumSource
	void curlUploadsAFileChunked(Container container) throws Exception {
		byte[] bytes = new byte[3 * 1024 * 1024];
		new Random(5).nextBytes(bytes);
		Path file = temp.resolve("upload.bin");
		Files.write(file, bytes);
		assertThat(curl("-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/octet-stream",
				"--data-binary", "@" + file, container.server().uri("/upload").toString()))
			.isEqualTo("{\"bytes\":" + bytes.length + ",\"sha256\":\"" + Digests.sha256(bytes) + "\"}");
	}

	@ParameterizedTest
	@EnumSource
	void curlReadsServerSentEvents(Container container) throws Exception {
		assertThat(curl("-N", container.server().uri("/sse?count=2&period=10").toString()))
			.isEqualTo("id:1\nevent:tick\ndata:tick 1\n\nid:2\nevent:tick\ndata:tick 2\n\n");
	}

	private static String curl(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http1.1", "--max-time", "30"));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(40, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("curl's exit status; it said: %s", output).isZero();
		return output;
	}

	private static String curlVersion() {
		try {
			Process process = new ProcessBuilder("curl", "--version").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			return (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0) ? output : null;
		}
		catch (IOException | InterruptedException ex) {
			return null;
		}
	}

}
