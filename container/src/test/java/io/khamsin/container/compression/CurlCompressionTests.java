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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * curl ({@code --compressed}, Debian's package) decodes what a khamsin server compresses, as
 * {@code server.compression} asks, to the identity body: whole bodies, one compressed off the event loop, a stream,
 * and server-sent events that must arrive one by one, in cleartext and over TLS; what must not be compressed (a
 * small body, another type, a body already encoded, a file region, a HEAD) goes out as it is. A coding the installed
 * curl cannot decode is skipped with the reason printed.
 */
@Timeout(120)
class CurlCompressionTests {

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	@TempDir
	static Path files;

	private static Path caPem;

	private static TlsConfig tls;

	private KhamsinServer server;

	private CompressionRoutes routes;

	private String scheme = "http";

	@TempDir
	Path directory;

	@BeforeAll
	static void issue() {
		TestCertificates certificates = TestCertificates.create();
		tls = TlsConfig.builder(certificates.server("127.0.0.1").material("127.0.0.1")).build();
		caPem = certificates.writeCaPem(files.resolve("ca.pem"));
	}

	@BeforeEach
	void start() throws Exception {
		start(null);
	}

	private void start(TlsConfig tls) throws Exception {
		if (this.server != null) {
			this.server.stop();
		}
		this.routes = new CompressionRoutes(Files.write(files.resolve("file.json"), CompressionRoutes.JSON));
		this.server = KhamsinServer.create(
				KhamsinServerConfig.builder().reactors(1).compression(CompressionRoutes.CONFIG).tls(tls).build(),
				this.routes);
		this.server.start();
		this.scheme = (tls != null) ? "https" : "http";
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void curlDecodesAWholeBodyToTheIdentityBody(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Response response = curl("/json", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(response.header("content-encoding")).isEqualTo(coding.token());
		assertThat(response.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(Integer.parseInt(response.header("content-length"))).isLessThan(CompressionRoutes.JSON_SIZE / 3);
		assertThat(response.body).isEqualTo(CompressionRoutes.JSON);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void curlDecodesAWholeBodyAndAStreamOverTls(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		start(tls);
		Response whole = curl("/json", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(whole.header("content-encoding")).isEqualTo(coding.token());
		assertThat(whole.body).isEqualTo(CompressionRoutes.JSON);
		Response large = curl("/large", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(large.header("content-encoding")).isEqualTo(coding.token());
		assertThat(large.body).isEqualTo(CompressionRoutes.LARGE);
		Response stream = curl("/stream", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(stream.header("content-encoding")).isEqualTo(coding.token());
		assertThat(stream.body).isEqualTo(CompressionRoutes.JSON);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void curlDecodesAStreamedBodyToTheIdentityBody(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Response response = curl("/stream", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(response.header("content-encoding")).isEqualTo(coding.token());
		assertThat(response.header("transfer-encoding")).isEqualTo("chunked");
		assertThat(response.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(response.body).isEqualTo(CompressionRoutes.JSON);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void curlDecodesABodyCompressedOffTheEventLoop(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		Response response = curl("/large", "--compressed", "-H", "Accept-Encoding: " + coding.token());
		assertThat(response.header("content-encoding")).isEqualTo(coding.token());
		assertThat(response.body).isEqualTo(CompressionRoutes.LARGE);
	}

	@Test
	void curlWithItsOwnAcceptEncodingGetsTheServersFirstChoice() throws Exception {
		assumeCurlDecodes(ContentCoding.ZSTD);
		assumeCurlDecodes(ContentCoding.BR);
		Response response = curl("/json", "--compressed");
		assertThat(response.header("content-encoding")).isEqualTo("zstd");
		assertThat(response.body).isEqualTo(CompressionRoutes.JSON);
	}

	@Test
	void aClientThatAsksForNoCodingGetsIdentityWithVary() throws Exception {
		assumeCurl();
		Response response = curl("/json");
		assertThat(response.header("content-encoding")).isNull();
		assertThat(response.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(response.header("content-length")).isEqualTo(String.valueOf(CompressionRoutes.JSON_SIZE));
		assertThat(response.body).isEqualTo(CompressionRoutes.JSON);
	}

	@Test
	void excludedResponsesGoOutAsTheyAre() throws Exception {
		assumeCurl();
		Response small = curl("/small", "--compressed");
		assertThat(small.header("content-encoding")).isNull();
		assertThat(small.header("vary")).isNull();
		assertThat(small.body).isEqualTo(CompressionRoutes.SMALL);
		Response image = curl("/image", "--compressed");
		assertThat(image.header("content-encoding")).isNull();
		assertThat(image.body).isEqualTo(CompressionRoutes.IMAGE);
		Response head = curl("/json", "--compressed", "--head");
		assertThat(head.header("content-encoding")).isNull();
		assertThat(head.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(head.header("content-length")).isEqualTo(String.valueOf(CompressionRoutes.JSON_SIZE));
		Response encoded = curl("/encoded", "-H", "Accept-Encoding: zstd, br, gzip");
		assertThat(encoded.header("content-encoding")).isEqualTo("gzip");
		assertThat(encoded.header("vary")).isNull();
		assertThat(encoded.body).isEqualTo(CompressionRoutes.JSON);
		Response file = curl("/file", "--compressed");
		assertThat(file.header("content-encoding")).isNull();
		assertThat(file.header("vary")).isEqualTo("Accept-Encoding");
		assertThat(file.header("content-length")).isEqualTo(String.valueOf(CompressionRoutes.JSON_SIZE));
		assertThat(file.body).isEqualTo(CompressionRoutes.JSON);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void serverSentEventsArriveOneByOne(ContentCoding coding) throws Exception {
		assumeCurlDecodes(coding);
		eventsArriveOneByOne(coding);
	}

	@Test
	void serverSentEventsArriveOneByOneOverTls() throws Exception {
		assumeCurlDecodes(ContentCoding.GZIP);
		start(tls);
		eventsArriveOneByOne(ContentCoding.GZIP);
	}

	private void eventsArriveOneByOne(ContentCoding coding) throws Exception {
		Process curl = new ProcessBuilder("curl", "-sS", "-N", "--compressed", "--cacert", caPem.toString(), "-H",
				"Accept-Encoding: " + coding.token(), "-D", this.directory.resolve("headers").toString(),
				url("/events"))
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		Thread reader = read(curl.getInputStream(), received);
		try {
			await().atMost(PATIENCE).until(this.routes::streamOpen);
			StringBuilder expected = new StringBuilder();
			for (int i = 0; i < 20; i++) {
				String event = "id: " + i + "\ndata: {\"symbol\":\"KHM\",\"price\":" + (100 + i) + "}\n\n";
				expected.append(event);
				this.routes.sendEvent(event);
				// The next event is sent only once curl has decoded and printed this one.
				await().atMost(PATIENCE).until(() -> received.toString().contentEquals(expected));
			}
			this.routes.endEvents();
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
				url("/events"))
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		read(curl.getInputStream(), received);
		await().atMost(PATIENCE).until(this.routes::streamOpen);
		this.routes.sendEvent("data: first\n\n");
		await().atMost(PATIENCE).until(() -> received.toString().equals("data: first\n\n"));
		curl.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		assertThat(this.routes.streamClosed.await(60, TimeUnit.SECONDS)).isTrue();
		await().atMost(PATIENCE).until(() -> this.server.connections().open() == 0);
	}

	@Test
	void aStreamCutShortByTheServerFreesTheEncoderAndCurlSaysSo() throws Exception {
		assumeCurlDecodes(ContentCoding.GZIP);
		Process curl = new ProcessBuilder("curl", "-sS", "-N", "--compressed", "-H", "Accept-Encoding: gzip",
				url("/broken"))
			.redirectError(this.directory.resolve("stderr").toFile())
			.start();
		StringBuffer received = new StringBuffer();
		Thread reader = read(curl.getInputStream(), received);
		assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
		reader.join(10_000);
		assertThat(curl.exitValue()).isNotZero();
		assertThat(received.toString()).isEqualTo("data: one\n\ndata: two\n\n");
		await().atMost(PATIENCE).until(() -> this.server.connections().open() == 0);
	}

	private Response curl(String path, String... options) throws Exception {
		Path body = this.directory.resolve("body");
		Path headers = this.directory.resolve("headers");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "--cacert", caPem.toString(), "-o",
				body.toString(), "-D", headers.toString()));
		command.addAll(List.of(options));
		command.add(url(path));
		Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(curl.exitValue()).as("curl: %s", output).isZero();
		return new Response(Files.readAllLines(headers),
				Files.exists(body) ? Files.readAllBytes(body) : new byte[0]);
	}

	private String url(String path) {
		return this.scheme + "://127.0.0.1:" + this.server.port() + path;
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
			case IDENTITY -> true;
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
