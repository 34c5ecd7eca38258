package io.khamsin.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.H3Client;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app with {@code khamsin.http3.enabled=true} and its TLS bundle, as a team would turn HTTP/3 on: Netty's
 * HTTP/3 client through its controllers and routes (a GET, an 8 MiB upload, server-sent events, a static file
 * checked byte by byte, as many streams at once as the server allows, and a download cancelled mid-body, with
 * Netty's leak detector at PARANOID as the referee), ngtcp2's client as a third party, and curl over HTTP/1.1 and
 * HTTP/2 told by {@code Alt-Svc} where HTTP/3 is.
 */
@Timeout(180)
class SampleAppOverHttp3Tests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static TlsSampleApp app;

	private static byte[] file;

	@BeforeAll
	static void start() throws Exception {
		app = TlsSampleApp.withHttp3();
		file = new byte[5 * 1024 * 1024 + 11];
		new Random(3).nextBytes(file);
		Files.write(app.filesDir().resolve("big.bin"), file);
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static H3Client client() throws Exception {
		return new H3Client(app.port(), app.certificates().ca());
	}

	@Test
	void controllersRoutesEventsAndFilesAnswerOverHttp3() throws Exception {
		try (H3Client client = client()) {
			H3Client.Response hello = client.send("GET", "/plaintext", null);
			assertThat(hello.status()).isEqualTo(200);
			assertThat(hello.text()).isEqualTo("Hello, World!");
			byte[] upload = new byte[8 * 1024 * 1024 + 5];
			new Random(5).nextBytes(upload);
			H3Client.Response receipt = client.send("POST", "/upload", upload);
			assertThat(receipt.status()).isEqualTo(200);
			assertThat(receipt.text()).contains(Digests.sha256(upload)).contains(Integer.toString(upload.length));
			H3Client.Response events = client.send("GET", "/sse?count=3&period=10", null);
			assertThat(events.headers().get("content-type").toString()).startsWith("text/event-stream");
			assertThat(events.text().split("event:tick", -1)).hasSize(4);
			H3Client.Response download = client.send("GET", "/files/big.bin", null);
			assertThat(download.status()).isEqualTo(200);
			assertThat(download.headers().get("content-length").toString()).isEqualTo(Integer.toString(file.length));
			assertThat(Digests.sha256(download.body())).isEqualTo(Digests.sha256(file));
		}
	}

	@Test
	void asManyStreamsAsTheServerAllowsAreServedAtOnce() throws Exception {
		try (H3Client client = client()) {
			List<CompletableFuture<H3Client.Response>> responses = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				responses.add(client.sendAsync("GET", "/plaintext", null, (headers) -> {
				}));
			}
			for (CompletableFuture<H3Client.Response> response : responses) {
				assertThat(response.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).text()).isEqualTo("Hello, World!");
			}
		}
	}

	@Test
	void aDownloadCancelledMidBodyEndsOnlyItsStream() throws Exception {
		try (H3Client client = client()) {
			for (int i = 0; i < 5; i++) {
				long received = client.getAndCancel("/files/big.bin", 256 * 1024).get(TIMEOUT.toMillis(),
						TimeUnit.MILLISECONDS);
				assertThat(received).isLessThan(file.length);
			}
			// The connection serves on; the leak detector fails the class if a cancelled body leaked a buffer.
			H3Client.Response download = client.send("GET", "/files/big.bin", null);
			assertThat(Digests.sha256(download.body())).isEqualTo(Digests.sha256(file));
		}
	}

	@Test
	void curlIsToldWhereHttp3IsOverHttp11AndHttp2() {
		CommandLine.assumeInstalled("curl", "curl");
		String altSvc = "alt-svc: h3=\":" + app.port() + "\"; ma=86400";
		for (String version : List.of("--http1.1", "--http2")) {
			CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "-i", version, "--cacert",
					app.caPem().toString(), app.uri("/plaintext").toString());
			assertThat(result.exitCode()).as(result.toString()).isZero();
			assertThat(result.output()).containsIgnoringCase(altSvc).endsWith("Hello, World!");
		}
	}

	@Test
	void ngtcp2sClientFetchesTextAndAFile() throws Exception {
		CommandLine.assumeInstalled("gtlsclient", "ngtcp2-client");
		Path downloads = Files.createTempDirectory("khamsin-gtlsclient-");
		String origin = "https://localhost:" + app.port();
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "gtlsclient", "--quiet", "--no-quic-dump",
				"--no-http-dump", "--exit-on-all-streams-close", "--sni=localhost", "--download=" + downloads,
				"127.0.0.1",
				Integer.toString(app.port()), origin + "/plaintext", origin + "/files/big.bin");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(Files.readString(downloads.resolve("plaintext"))).isEqualTo("Hello, World!");
		assertThat(Digests.sha256(Files.readAllBytes(downloads.resolve("big.bin")))).isEqualTo(Digests.sha256(file));
	}

}
