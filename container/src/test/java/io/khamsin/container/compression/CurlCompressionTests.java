package io.khamsin.container.compression;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * curl ({@code --compressed}, Debian's package) decodes what the encoders write over a real socket to the identity
 * body: whole bodies, one compressed off the event loop, and server-sent events that must arrive one by one. A
 * coding the installed curl cannot decode is skipped with the reason printed.
 */
@Timeout(120)
class CurlCompressionTests {

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private CompressingTestServer server;

	@TempDir
	Path directory;

	@BeforeEach
	void start() throws Exception {
		this.server = new CompressingTestServer();
	}

	@AfterEach
	void stop() throws Exception {
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(ContentCoding.class)
	void curlDecodesAWholeBodyToTheIdentityBody(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Response response = curl("/json", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(response.header("content-encoding")).isEqualTo(coding.token());
		assertThat(response.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(Integer.parseInt(response.header("content-length"))).isLessThan(CompressingTestServer.JSON_SIZE / 3);
		assertThat(response.body).isEqualTo(CompressingTestServer.JSON);
	}

	@ParameterizedTest
	@EnumSource(ContentCoding.class)
	void curlDecodesABodyCompressedOffTheEventLoop(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Response response = curl("/large", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(response.header("content-encoding")).isEqualTo(coding.token());
		assertThat(response.body).isEqualTo(CompressingTestServer.LARGE);
	}

	@Test
	void curlWithItsOwnAcceptEncodingGetsTheServersFirstChoice() throws Exception {
		assumeCurlDecodes(ContentCoding.ZSTD);
		assumeCurlDecodes(ContentCoding.BR);
		Response response = curl("/json", "--compressed");
		assertThat(response.header("content-encoding")).isEqualTo("zstd");
		assertThat(response.body).isEqualTo(CompressingTestServer.JSON);
	}

	@Test
	void aClientThatAsksForNoCodingGetsIdentityWithVary() throws Exception {
		assumeCurl();
		Response response = curl("/json");
		assertThat(response.header("content-encoding")).isNull();
		assertThat(response.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(response.header("content-length")).isEqualTo(String.valueOf(CompressingTestServer.JSON_SIZE));
		assertThat(response.body).isEqualTo(CompressingTestServer.JSON);
	}

	@Test
	void excludedResponsesGoOutAsTheyAre() throws Exception {
		assumeCurl();
		Response small = curl("/small", "--compressed");
		assertThat(small.header("content-encoding")).isNull();
		assertThat(small.header("vary")).isNull();
		assertThat(small.body).isEqualTo(CompressingTestServer.SMALL);
		Response image = curl("/image", "--compressed");
		assertThat(image.header("content-encoding")).isNull();
		assertThat(image.body).isEqualTo(CompressingTestServer.IMAGE);
		Response head = curl("/json", "--compressed", "--head");
		assertThat(head.header("content-encoding")).isNull();
		assertThat(head.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(head.header("content-length")).isEqualTo(String.valueOf(CompressingTestServer.JSON_SIZE));
	}

	@ParameterizedTest
	@EnumSource(ContentCoding.class)
	void serverSentEventsArriveOneByOne(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Process curl = new ProcessBuilder("curl", "-sS", "-N", "--compressed", "-H",
				"Accept-Encoding: " + coding.token(), "-D", this.directory.resolve("headers").toString(),
				"http://127.0.0.1:" + this.server.port() + "/events")
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		Thread reader = read(curl.getInputStream(), received);
		try {
			await().atMost(PATIENCE).until(this.server::streamOpen);
			StringBuilder expected = new StringBuilder();
			for (int i = 0; i < 20; i++) {
				String event = "id: " + i + "\ndata: {\"symbol\":\"KHM\",\"price\":" + (100 + i) + "}\n\n";
				expected.append(event);
				this.server.sendEvent(event);
				// The next event is sent only once curl has decoded and printed this one.
				await().atMost(PATIENCE).until(() -> received.toString().contentEquals(expected));
			}
			this.server.endEvents();
			assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(curl.exitValue()).isZero();
			reader.join(10_000);
			assertThat(received.toString()).isEqualTo(expected.toString());
			assertThat(Files.readString(this.directory.resolve("headers")).toLowerCase(Locale.ROOT))
				.contains("content-encoding: " + coding.token());
		}
		finally {
			curl.destroyForcibly();
		}
	}

	@Test
	void aClientThatLeavesMidStreamFreesTheEncoder() throws Exception {
		assumeCurlDecodes(ContentCoding.BR);
		Process curl = new ProcessBuilder("curl", "-sS", "-N", "--compressed", "-H", "Accept-Encoding: br",
				"http://127.0.0.1:" + this.server.port() + "/events")
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		read(curl.getInputStream(), received);
		await().atMost(PATIENCE).until(this.server::streamOpen);
		this.server.sendEvent("data: first\n\n");
		await().atMost(PATIENCE).until(() -> received.toString().equals("data: first\n\n"));
		curl.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		assertThat(this.server.streamClosed.await(60, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aStreamCutShortByTheServerFreesTheEncoderAndCurlSaysSo() throws Exception {
		assumeCurlDecodes(ContentCoding.GZIP);
		Process curl = new ProcessBuilder("curl", "-sS", "-N", "--compressed", "-H", "Accept-Encoding: gzip",
				"http://127.0.0.1:" + this.server.port() + "/broken")
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		Thread reader = read(curl.getInputStream(), received);
		assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
		reader.join(10_000);
		assertThat(curl.exitValue()).isNotZero();
		assertThat(received.toString()).isEqualTo("data: one\n\ndata: two\n\n");
		assertThat(this.server.streamClosed.await(60, TimeUnit.SECONDS)).isTrue();
	}

	private Response curl(String path, String... options) throws Exception {
		Path body = this.directory.resolve("body");
		Path headers = this.directory.resolve("headers");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "-o", body.toString(), "-D", headers.toString()));
		command.addAll(List.of(options));
		command.add("http://127.0.0.1:" + this.server.port() + path);
		Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(curl.exitValue()).as("curl: %s", output).isZero();
		return new Response(Files.readAllLines(headers),
				Files.exists(body) ? Files.readAllBytes(body) : new byte[0]);
	}

	private static Thread read(InputStream in, StringBuffer received) {
		Thread reader = new Thread(() -> {
			byte[] chunk = new byte[4096];
			try {
				int n;
				while ((n = in.read(chunk)) >= 0) {
					received.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
				}
			}
			catch (IOException ex) {
				// curl was stopped.
			}
		}, "curl-stdout");
		reader.setDaemon(true);
		reader.start();
		return reader;
	}

	private static void assumeCurl() {
		Assumptions.assumeTrue(CurlFeatures.VERSION != null, "curl is not installed (apt-get install curl): skipped");
	}

	private static void assumeCurlDecodes(ContentCoding coding) {
		assumeCurl();
		boolean decodes = switch (coding) {
			case GZIP -> CurlFeatures.VERSION.contains("libz");
			case BR -> CurlFeatures.VERSION.contains("brotli");
			case ZSTD -> CurlFeatures.VERSION.contains("zstd");
		};
		if (!decodes) {
			System.out.println("The installed curl does not decode " + coding.token() + ": skipped");
		}
		Assumptions.assumeTrue(decodes, "The installed curl does not decode " + coding.token());
	}

	private record Response(List<String> headerLines, byte[] body) {

		String header(String name) {
			for (String line : this.headerLines) {
				int colon = line.indexOf(':');
				if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
					return line.substring(colon + 1).trim();
				}
			}
			return null;
		}

	}

	/** The Features line of {@code curl -V}, read once; {@code null} when curl is not installed. */
	private static final class CurlFeatures {

		static final String VERSION = read();

		private static String read() {
			try {
				Process curl = new ProcessBuilder("curl", "-V").redirectErrorStream(true).start();
				String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				curl.waitFor(30, TimeUnit.SECONDS);
				return output.lines().filter((line) -> line.startsWith("Features:")).findFirst().orElse("");
			}
			catch (IOException ex) {
				System.out.println("curl is not installed: " + ex.getMessage());
				return null;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}

	}

}
