package io.khamsin.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Precompressed static resources as a team sets them up: {@code spring.web.resources.chain.compressed=true} with
 * {@code khamsin.egress.precompressed-zstd=true}, response compression on for the same type. curl asks with each
 * Accept-Encoding and gets the sibling's own bytes, ranges of them, and the file leaves by the kernel.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrecompressedResourcesTests {

	@TempDir
	static Path dir;

	private static byte[] identity;

	private static byte[] gzip;

	private static byte[] brotli;

	private static byte[] zstd;

	private static ConfigurableApplicationContext context;

	private static int port;

	@BeforeAll
	static void start() throws Exception {
		StringBuilder css = new StringBuilder();
		for (int i = 0; i < 2_000; i++) {
			css.append(".rule-").append(i).append(" { margin: ").append(i % 17).append("px; color: #3a3a3a; }\n");
		}
		identity = css.toString().getBytes(StandardCharsets.US_ASCII);
		Path statics = Files.createDirectories(dir.resolve("static"));
		Files.write(statics.resolve("site.css"), identity);
		ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
		try (GZIPOutputStream out = new GZIPOutputStream(gzipped)) {
			out.write(identity);
		}
		gzip = gzipped.toByteArray();
		Files.write(statics.resolve("site.css.gz"), gzip);
		Brotli4jLoader.ensureAvailability();
		brotli = Encoder.compress(identity);
		Files.write(statics.resolve("site.css.br"), brotli);
		zstd = Zstd.compress(identity);
		Files.write(statics.resolve("site.css.zst"), zstd);
		context = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--server.address=127.0.0.1", "--sample.files.dir=" + Files.createDirectories(dir.resolve("files")),
				"--spring.web.resources.static-locations=file:" + statics + "/",
				"--spring.web.resources.chain.compressed=true", "--khamsin.egress.precompressed-zstd=true",
				"--server.compression.enabled=true", "--server.compression.mime-types=text/css",
				"--server.compression.min-response-size=1B", "--spring.main.banner-mode=off");
		port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void eachCodingTheClientAcceptsGetsItsSiblingsOwnBytes() throws Exception {
		assertEncoded("zstd", "zstd", zstd);
		assertEncoded("gzip", "gzip", gzip);
		assertEncoded("br", "br", brotli);
		// The first coding the client lists that has a sibling (Spring's resolver reads no q-values).
		assertEncoded("zstd, gzip, br", "zstd", zstd);
		assertEncoded("deflate, br, zstd", "br", brotli);
		Download plain = download(List.of());
		assertThat(plain.header("content-encoding")).as("no Accept-Encoding: the file itself").isNull();
		assertThat(plain.body()).isEqualTo(identity);
	}

	@Test
	void aRangeOfAnEncodedSiblingIsARangeOfItsBytesOneOrSeveral() throws Exception {
		Download single = download(List.of("-H", "Accept-Encoding: zstd", "-H", "Range: bytes=10-109"));
		assertThat(single.status()).isEqualTo(206);
		assertThat(single.header("content-encoding")).isEqualTo("zstd");
		assertThat(single.header("content-range")).isEqualTo("bytes 10-109/" + zstd.length);
		assertThat(single.body()).isEqualTo(Arrays.copyOfRange(zstd, 10, 110));
		Download multiple = download(List.of("-H", "Accept-Encoding: zstd", "-H", "Range: bytes=0-9,200-299"));
		assertThat(multiple.status()).isEqualTo(206);
		assertThat(multiple.header("content-type")).startsWith("multipart/byteranges");
		assertThat(multiple.header("content-length")).as("the multipart body is framed by chunks").isNull();
		String body = new String(multiple.body(), StandardCharsets.ISO_8859_1);
		assertThat(body).contains("Content-Range: bytes 0-9/" + zstd.length, "Content-Range: bytes 200-299/" + zstd.length)
			.contains(new String(Arrays.copyOfRange(zstd, 0, 10), StandardCharsets.ISO_8859_1))
			.contains(new String(Arrays.copyOfRange(zstd, 200, 300), StandardCharsets.ISO_8859_1));
	}

	@Test
	void encodedSiblingsLeaveByTheKernelLikeAnyFile() throws Exception {
		long before = plainConnectionFileBodies();
		download(List.of("-H", "Accept-Encoding: zstd"));
		download(List.of("-H", "Accept-Encoding: br"));
		assertThat(plainConnectionFileBodies()).isEqualTo(before + 2);
	}

	private void assertEncoded(String accepted, String coding, byte[] expected) throws Exception {
		Download download = download(List.of("-H", "Accept-Encoding: " + accepted));
		assertThat(download.status()).isEqualTo(200);
		assertThat(download.header("content-encoding")).as("Accept-Encoding: %s", accepted).isEqualTo(coding);
		assertThat(download.header("vary")).containsIgnoringCase("Accept-Encoding");
		assertThat(download.body()).as("the %s sibling's bytes, compressed once", coding).isEqualTo(expected);
	}

	private long plainConnectionFileBodies() throws Exception {
		Path out = Files.createTempFile(dir, "khamsin", ".json");
		curl(List.of("-o", out.toString(), "http://127.0.0.1:" + port + "/actuator/khamsin"));
		Matcher matcher = Pattern.compile("\"reason\":\"plain-connection\",\"count\":(\\d+)")
			.matcher(Files.readString(out));
		assertThat(matcher.find()).as("fileBodies in /actuator/khamsin").isTrue();
		return Long.parseLong(matcher.group(1));
	}

	private Download download(List<String> arguments) throws Exception {
		Path headers = Files.createTempFile(dir, "headers", ".txt");
		Path body = Files.createTempFile(dir, "body", ".bin");
		List<String> command = new ArrayList<>(List.of("-D", headers.toString(), "-o", body.toString()));
		command.addAll(arguments);
		command.add("http://127.0.0.1:" + port + "/site.css");
		curl(command);
		return new Download(Files.readAllLines(headers, StandardCharsets.ISO_8859_1), Files.readAllBytes(body));
	}

	private static void curl(List<String> arguments) throws IOException {
		CommandLine.assumeInstalled("curl", "curl");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http1.1", "--max-time", "30"));
		command.addAll(arguments);
		CommandLine.Result result = CommandLine.run(null, java.time.Duration.ofSeconds(40), command);
		assertThat(result.exitCode()).as("curl's exit status; it said: %s", result.output()).isZero();
	}

	private record Download(List<String> headers, byte[] body) {

		int status() {
			return Integer.parseInt(this.headers.get(0).split(" ")[1]);
		}

		String header(String name) {
			String prefix = name.toLowerCase(Locale.ROOT) + ":";
			for (String line : this.headers) {
				if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
					return line.substring(prefix.length()).trim();
				}
			}
			return null;
		}

	}

}
