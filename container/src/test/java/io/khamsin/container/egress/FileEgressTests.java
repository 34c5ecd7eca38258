package io.khamsin.container.egress;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.LogCapture;
import io.khamsin.container.tls.DevelopmentCertificate;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A file written through {@link ZeroCopyHttpOutputMessage}, downloaded by curl over each kind of connection: the
 * body arrives whole, and the server counts the way it left and why, once per response. A file unlinked while it is
 * sent still arrives whole; one truncated ends only its response, with one line in the log that says so.
 */
class FileEgressTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int SIZE = 3 * 1024 * 1024 + 17;

	@TempDir
	static Path dir;

	private static Path file;

	private static String digest;

	private KhamsinServer server;

	private DefaultPageCache cache;

	@BeforeAll
	static void writeFile() throws Exception {
		byte[] content = new byte[SIZE];
		new Random(7).nextBytes(content);
		file = Files.write(dir.resolve("download.bin"), content);
		digest = sha256(file);
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
		if (this.cache != null) {
			this.cache.close();
		}
	}

	@Test
	void aPlainHttp1FileLeavesByTheKernel() throws Exception {
		start(UnaryOperator.identity());
		assertThat(download("http", "--http1.1")).isEqualTo(digest);
		assertThat(counts()).containsEntry(EgressReason.PLAIN_CONNECTION, 1L)
			.containsEntry(EgressReason.TLS_IN_USERSPACE, 0L);
	}

	@Test
	void aFileOverTlsIsEncryptedByTheJvm() throws Exception {
		start((config) -> config.tls(TlsConfig.builder(DevelopmentCertificate.create().material()).build()));
		assertThat(download("https", "--http1.1")).isEqualTo(digest);
		assertThat(counts()).containsEntry(EgressReason.TLS_IN_USERSPACE, 1L)
			.containsEntry(EgressReason.PLAIN_CONNECTION, 0L);
	}

	@Test
	void aFileOnAnHttp2StreamLeavesInDataFrames() throws Exception {
		start((config) -> config.http2(Http2Config.builder().enabled(true).build()));
		assertThat(download("http", "--http2-prior-knowledge")).isEqualTo(digest);
		assertThat(counts()).containsEntry(EgressReason.PROTOCOL_FRAMES, 1L)
			.containsEntry(EgressReason.PLAIN_CONNECTION, 0L);
	}

	@Test
	void aFileThePageCacheStoresPassesThroughTheJvmOnceAndIsAHitAfterwards() throws Exception {
		this.cache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).admissionThreshold(1).maxObjectSize(8 * 1024 * 1024)
			.maxSize(32 * 1024 * 1024).build()).build();
		start((config) -> config.pageCache(this.cache));
		assertThat(download("http", "--http1.1")).isEqualTo(digest);
		// The cache stores the body once its last byte is written, which can be after curl has read it all.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.cache.figures().entries() == 1);
		assertThat(download("http", "--http1.1")).as("the second download, a hit").isEqualTo(digest);
		assertThat(counts()).containsEntry(EgressReason.PAGE_CACHE_COPY, 1L)
			.containsEntry(EgressReason.PLAIN_CONNECTION, 0L);
	}

	@ParameterizedTest(name = "{0} {1} {2}")
	@CsvSource({ "IO_URING, http, --http1.1", "EPOLL, http, --http1.1", "NIO, http, --http1.1",
			"AUTO, https, --http1.1", "AUTO, http, --http2-prior-knowledge" })
	void aFileThatShrinksWhileItIsSentEndsOnlyItsResponse(Transport transport, String scheme, String protocol)
			throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		long length = 64L * 1024 * 1024;
		try (RandomAccessFile shrinking = new RandomAccessFile(dir.resolve("shrinking.bin").toFile(), "rw")) {
			shrinking.setLength(length);
		}
		start((config) -> {
			config.transport(transport).http2(Http2Config.builder().enabled(true).build());
			return scheme.equals("https")
					? config.tls(TlsConfig.builder(DevelopmentCertificate.create().material()).build()) : config;
		});
		Path out = Files.createTempFile(dir, "out", ".bin");
		LogCapture log = LogCapture.ofPackage("io.khamsin.container.bridge");
		Process curl = new ProcessBuilder("curl", "-sS", "-k", protocol, "--limit-rate", "8M", "-o", out.toString(),
				scheme + "://127.0.0.1:" + this.server.port() + "/shrinking.bin")
			.redirectErrorStream(true)
			.start();
		try (log) {
			await().atMost(WAIT).until(() -> Files.size(out) >= 256 * 1024);
			try (FileChannel shrinking = FileChannel.open(dir.resolve("shrinking.bin"), StandardOpenOption.WRITE)) {
				shrinking.truncate(1024 * 1024);
			}
			assertThat(curl.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("curl ends").isTrue();
			String output = new String(curl.getInputStream().readAllBytes());
			assertThat(curl.exitValue()).as("curl exit code, output: %s", output).isNotZero();
			assertThat(Files.size(out)).isLessThan(length);
			await().atMost(WAIT).untilAsserted(() -> assertThat(log.messages(Level.WARN)).singleElement()
				.asString()
				.contains("shrinking.bin was truncated while it was sent")
				.contains("Replace a served file by renaming a new one into place"));
		}
		finally {
			curl.destroyForcibly();
		}
		assertThat(download(scheme, protocol)).as("the next download").isEqualTo(digest);
	}

	@ParameterizedTest(name = "{0} {1}")
	@CsvSource({ "http, --http1.1", "https, --http1.1", "http, --http2-prior-knowledge" })
	void aFileUnlinkedWhileItIsSentIsSentWholeFromItsOpenFile(String scheme, String protocol) throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		long length = 16L * 1024 * 1024;
		Path unlinked = dir.resolve("unlinked-" + scheme + protocol + ".bin");
		try (RandomAccessFile file = new RandomAccessFile(unlinked.toFile(), "rw")) {
			file.setLength(length);
		}
		start((config) -> {
			config.http2(Http2Config.builder().enabled(true).build());
			return scheme.equals("https")
					? config.tls(TlsConfig.builder(DevelopmentCertificate.create().material()).build()) : config;
		});
		Path out = Files.createTempFile(dir, "out", ".bin");
		Process curl = new ProcessBuilder("curl", "-sS", "-k", protocol, "--limit-rate", "8M", "-o", out.toString(),
				scheme + "://127.0.0.1:" + this.server.port() + "/" + unlinked.getFileName())
			.redirectErrorStream(true)
			.start();
		try {
			await().atMost(WAIT).until(() -> Files.size(out) >= 256 * 1024);
			Files.delete(unlinked);
			assertThat(curl.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("curl ends").isTrue();
			String output = new String(curl.getInputStream().readAllBytes());
			assertThat(curl.exitValue()).as("curl exit code, output: %s", output).isZero();
			assertThat(Files.size(out)).as("the whole of the file as it was opened").isEqualTo(length);
		}
		finally {
			curl.destroyForcibly();
		}
		assertThat(download(scheme, protocol)).as("the next download").isEqualTo(digest);
	}

	@ParameterizedTest(name = "{0} {1} {2}")
	@CsvSource({ "IO_URING, http, --http1.1", "EPOLL, http, --http1.1", "NIO, http, --http1.1",
			"AUTO, https, --http1.1", "AUTO, http, --http2-prior-knowledge", "AUTO, https, --http2" })
	void filesAroundTheLargestReadWholeArriveWhole(Transport transport, String scheme, String protocol)
			throws Exception {
		startWithHttp2(transport, scheme);
		for (int size : new int[] { 1, FileEgress.WHOLE_READ_LIMIT - 1, FileEgress.WHOLE_READ_LIMIT,
				FileEgress.WHOLE_READ_LIMIT + 1 }) {
			Path small = dir.resolve("small-" + size + ".bin");
			byte[] content = new byte[size];
			new Random(size).nextBytes(content);
			Files.write(small, content);
			assertThat(download(scheme, protocol, "/" + small.getFileName())).as("%s bytes", size)
				.isEqualTo(sha256(small));
		}
		// A range of a larger file that fits one read, as Spring writes a single range.
		Path range = dir.resolve("range.bin");
		try (FileChannel whole = FileChannel.open(file)) {
			Files.write(range, new byte[0]);
			try (FileChannel part = FileChannel.open(range, StandardOpenOption.WRITE)) {
				whole.transferTo(1000, 4096, part);
			}
		}
		assertThat(download(scheme, protocol, "/download.bin?from=1000&count=4096")).isEqualTo(sha256(range));
	}

	@ParameterizedTest(name = "{0} {1}")
	@CsvSource({ "IO_URING, http", "AUTO, https" })
	void aSmallFileShorterThanItsRangeIsAnswered500AndTheConnectionServesOn(Transport transport, String scheme)
			throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		Files.write(dir.resolve("short.bin"), new byte[1000]);
		startWithHttp2(transport, scheme);
		String url = scheme + "://127.0.0.1:" + this.server.port();
		Path out = Files.createTempFile(dir, "out", ".bin");
		try (LogCapture log = LogCapture.ofPackage("io.khamsin.container.bridge")) {
			// One curl, two requests: the second reuses the connection the first was answered on.
			CommandLine.Result result = CommandLine.run(null, WAIT, List.of("curl", "-sS", "-k", "--http1.1", "-w",
					"%{http_code} %{num_connects}\\n", "-o", "/dev/null", url + "/short.bin?count=2000", "-o",
					out.toString(), url + "/download.bin"));
			assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
			assertThat(result.output().lines()).containsExactly("500 1", "200 0");
			assertShorterLogged(log);
		}
		assertThat(sha256(out)).isEqualTo(digest);
	}

	@Test
	void aSmallFileShorterThanItsRangeIsAnswered500OnItsHttp2StreamAndTheConnectionServesOn() throws Exception {
		// curl 7.88 fails to reuse an h2c connection with any server, so nghttp asks on one connection.
		CommandLine.assumeInstalled("nghttp", "nghttp2-client");
		Files.write(dir.resolve("short.bin"), new byte[1000]);
		startWithHttp2(Transport.AUTO, "http");
		String url = "http://127.0.0.1:" + this.server.port();
		try (LogCapture log = LogCapture.ofPackage("io.khamsin.container.bridge")) {
			CommandLine.Result result = CommandLine.run(null, WAIT,
					List.of("nghttp", "-nv", url + "/short.bin?count=2000", url + "/download.bin"));
			assertThat(result.exitCode()).as("nghttp exit code, output: %s", result.output()).isZero();
			assertThat(result.output()).contains(":status: 500", ":status: 200")
				.doesNotContain("recv RST_STREAM", "recv GOAWAY");
			assertShorterLogged(log);
		}
		assertThat(download("http", "--http2-prior-knowledge")).isEqualTo(digest);
	}

	private static void assertShorterLogged(LogCapture log) {
		assertThat(log.messages(Level.WARN)).singleElement()
			.asString()
			.contains("short.bin is shorter than the range to send from it")
			.contains("answering 500");
	}

	private void startWithHttp2(Transport transport, String scheme) {
		start((config) -> {
			config.transport(transport).http2(Http2Config.builder().enabled(true).build());
			return scheme.equals("https")
					? config.tls(TlsConfig.builder(DevelopmentCertificate.create().material()).build()) : config;
		});
	}

	private void start(UnaryOperator<KhamsinServerConfig.Builder> settings) {
		HttpHandler handler = (request, response) -> {
			response.getHeaders().set("Cache-Control", "max-age=60");
			Path body = dir.resolve(request.getPath().value().substring(1));
			String from = request.getQueryParams().getFirst("from");
			String count = request.getQueryParams().getFirst("count");
			try {
				return ((ZeroCopyHttpOutputMessage) response).writeWith(body, (from != null) ? Long.parseLong(from) : 0,
						(count != null) ? Long.parseLong(count) : Files.size(body));
			}
			catch (IOException ex) {
				return Mono.error(ex);
			}
		};
		this.server = KhamsinServer.create(settings.apply(KhamsinServerConfig.builder().reactors(1)).build(), handler);
		this.server.start();
	}

	private Map<EgressReason, Long> counts() {
		return this.server.metrics().egress().snapshot();
	}

	private String download(String scheme, String protocol) throws Exception {
		return download(scheme, protocol, "/download.bin");
	}

	private String download(String scheme, String protocol, String path) throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		Path out = Files.createTempFile(dir, "out", ".bin");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "-k", protocol, "-o", out.toString(),
				scheme + "://127.0.0.1:" + this.server.port() + path));
		CommandLine.Result result = CommandLine.run(null, WAIT, command);
		assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
		return sha256(out);
	}

	private static String sha256(Path path) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
	}

}
