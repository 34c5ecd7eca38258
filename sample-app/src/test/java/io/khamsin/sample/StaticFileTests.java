package io.khamsin.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Static files under {@code /files/**}, written by WebFlux's resource handling: through
 * {@code ZeroCopyHttpOutputMessage} (sendfile on khamsin's plain connections) when the resource is a file.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaticFileTests {

	private static final int SIZE = 5 * 1024 * 1024 + 123;

	private static byte[] content;

	private final HttpClient client = HttpClients.http1();

	@BeforeAll
	static void writeFiles() throws Exception {
		content = new byte[SIZE];
		new Random(11).nextBytes(content);
		Path files = SampleServers.filesDir();
		Files.write(files.resolve("download.bin"), content);
		// A Last-Modified under a second old is a weak validator, which If-Range never matches.
		Files.setLastModifiedTime(files.resolve("download.bin"),
				FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
		Files.createDirectories(files.resolve("docs"));
		Files.writeString(files.resolve("docs/readme.txt"), "read me");
		Files.writeString(files.getParent().resolve("secret.txt"), "not for the web");
	}

	@ParameterizedTest
	@EnumSource
	void fileIsDownloadedWhole(Container container) throws Exception {
		HttpResponse<byte[]> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/files/download.bin")).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(SIZE);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
		assertThat(Digests.sha256(response.body())).isEqualTo(Digests.sha256(content));
	}

	@ParameterizedTest
	@EnumSource
	void rangeOfAFileIsAnsweredPartially(Container container) throws Exception {
		HttpResponse<byte[]> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/files/download.bin"))
					.header("Range", "bytes=1000000-1999999")
					.build(),
				HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(206);
		assertThat(response.headers().firstValue("Content-Range")).hasValue("bytes 1000000-1999999/" + SIZE);
		assertThat(response.body()).isEqualTo(Arrays.copyOfRange(content, 1_000_000, 2_000_000));
	}

	@Test
	void ifRangeServesTheRangeOnlyWhileTheFileIsTheOneTheClientHas() throws Exception {
		URI uri = Container.KHAMSIN.server().uri("/files/download.bin");
		String lastModified = this.client.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.discarding()).headers().firstValue("Last-Modified").orElseThrow();
		HttpResponse<byte[]> same = rangeIf(uri, lastModified);
		assertThat(same.statusCode()).isEqualTo(206);
		assertThat(same.body()).isEqualTo(Arrays.copyOfRange(content, 100, 200));
		String older = DateTimeFormatter.RFC_1123_DATE_TIME
			.format(ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).minusDays(1));
		for (String changed : List.of(older, "\"an-entity-tag\"", "W/\"weak\"", "not a validator")) {
			HttpResponse<byte[]> whole = rangeIf(uri, changed);
			assertThat(whole.statusCode()).as("If-Range: %s", changed).isEqualTo(200);
			assertThat(whole.headers().firstValue("Content-Range")).isEmpty();
			assertThat(whole.body()).isEqualTo(content);
		}
	}

	@Test
	void aRangeOutsideTheFileIsAnswered416WithNoBodyAndTheConnectionServesOn() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(Container.KHAMSIN.server().port())) {
			RawHttpConnection.Response refused = connection
				.send("GET /files/download.bin HTTP/1.1\r\nHost: a\r\nRange: bytes=999999999-\r\n\r\n")
				.read();
			assertThat(refused.status()).isEqualTo(416);
			assertThat(refused.header("content-length")).isEqualTo("0");
			RawHttpConnection.Response next = connection.send("GET /files/docs/readme.txt HTTP/1.1\r\nHost: a\r\n\r\n")
				.read();
			assertThat(next.bodyText()).isEqualTo("read me");
		}
	}

	private HttpResponse<byte[]> rangeIf(URI uri, String condition) throws Exception {
		return this.client.send(
				HttpRequest.newBuilder(uri).header("Range", "bytes=100-199").header("If-Range", condition).build(),
				HttpResponse.BodyHandlers.ofByteArray());
	}

	@ParameterizedTest
	@EnumSource
	void fileInASubdirectoryIsServedWithItsMediaType(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/files/docs/readme.txt")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		assertThat(response.body()).isEqualTo("read me");
	}

	@ParameterizedTest
	@EnumSource
	void missingFileIsNotFound(Container container) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(container.server().uri("/files/missing.bin")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(404);
	}

	@ParameterizedTest
	@EnumSource
	void fileOutsideTheDirectoryIsNotServed(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			for (String target : new String[] { "/files/../secret.txt", "/files/%2e%2e/secret.txt",
					"/files/docs/..%2f..%2fsecret.txt" }) {
				RawHttpConnection.Response response = connection.send(Requests.get(target)).read();
				assertThat(response.status()).as(target).isBetween(400, 499);
				assertThat(new String(response.body(), StandardCharsets.UTF_8)).doesNotContain("not for the web");
			}
		}
	}

	@ParameterizedTest
	@EnumSource
	void aFileReplacedBetweenTwoRequestsIsServedAsItIsNow(Container container) throws Exception {
		Path file = SampleServers.filesDir().resolve("replaced-" + container + ".txt");
		Files.writeString(file, "first");
		Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-02T03:04:05Z")));
		URI uri = container.server().uri("/files/" + file.getFileName());
		HttpResponse<String> first = this.client.send(HttpRequest.newBuilder(uri).build(),
				HttpResponse.BodyHandlers.ofString());
		Path replacement = file.resolveSibling(file.getFileName() + ".new");
		Files.writeString(replacement, "the second, longer");
		Files.move(replacement, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		Thread.sleep(10);
		HttpResponse<String> second = this.client.send(HttpRequest.newBuilder(uri).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(first.body()).isEqualTo("first");
		assertThat(first.headers().firstValue("Last-Modified")).hasValue("Fri, 02 Jan 2026 03:04:05 GMT");
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(second.body()).isEqualTo("the second, longer");
		assertThat(second.headers().firstValueAsLong("Content-Length")).hasValue(18);
		assertThat(second.headers().firstValue("Last-Modified"))
			.isNotEqualTo(first.headers().firstValue("Last-Modified"));
		Files.delete(file);
		Thread.sleep(10);
		assertThat(this.client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
			.statusCode()).as("once deleted").isEqualTo(404);
	}

}
