package io.khamsin.container.http2;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 over TLS: with HTTP/2 on, a TLS listener offers {@code h2} ahead of {@code http/1.1} by ALPN, and real
 * clients that ask for h2 (curl, the JDK's HttpClient, h2load with many streams) get it on BoringSSL and on the
 * JDK's provider, while a client that offers only HTTP/1.1 is served HTTP/1.1 on the same port.
 */
@Timeout(90)
class Http2OverTlsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static Path caPem;

	private KhamsinServer server;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	private void start(TlsProvider provider) throws Exception {
		Path file = Files.writeString(dir.resolve("file.txt"), "file body\n");
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(localhost.material("localhost")).provider(provider).build())
			.http2(Http2Config.builder().enabled(true).build())
			.build(), new TestRoutes(file).handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	private String url(String path) {
		return "https://localhost:" + this.server.port() + path;
	}

	@Test
	void alpnOffersH2AheadOfHttp11() throws Exception {
		start(TlsProvider.AUTO);
		assertThat(this.server.protocols()).containsExactly("h2", "http/1.1");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void curlAsksForH2AndGetsIt(TlsProvider provider) throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		start(provider);
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2", "--cacert",
				caPem.toString(), "-w", "\\n%{http_version} %{http_code} %{scheme}", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello, World!\n2 200 HTTPS");
	}

	@Test
	void aClientThatOffersOnlyHttp11IsServedHttp11OnTheSamePort() throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		start(TlsProvider.AUTO);
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http1.1", "--cacert",
				caPem.toString(), "-w", "\\n%{http_version} %{http_code}", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello, World!\n1.1 200");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void theJdkClientGetsAndUploadsOverH2(TlsProvider provider) throws Exception {
		start(provider);
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_2)
			.sslContext(certificates.clientContext(null))
			.build();
		HttpResponse<String> hello = client.send(HttpRequest.newBuilder(URI.create(url("/plaintext"))).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(hello.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(hello.body()).isEqualTo("Hello, World!");
		byte[] upload = new byte[4 * 1024 * 1024 + 3];
		new Random(13).nextBytes(upload);
		HttpResponse<String> digest = client.send(HttpRequest.newBuilder(URI.create(url("/digest")))
			.POST(HttpRequest.BodyPublishers.ofByteArray(upload))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(digest.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(digest.body()).isEqualTo(upload.length + " " + TestRoutes.sha256Hex(upload));
	}

	@Test
	void h2loadGetsEveryAnswerOverManyConcurrentStreamsOverTls() throws Exception {
		CommandLine.assumeInstalled("h2load", "nghttp2-client");
		start(TlsProvider.AUTO);
		CommandLine.Result result = CommandLine.run(null, Duration.ofSeconds(60), "h2load", "-c", "8", "-m", "100",
				"-n", "20000", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.find("Application protocol: (\\S+)")).as(result.toString()).isEqualTo("h2");
		assertThat(result.find("requests: \\d+ total, \\d+ started, \\d+ done, (\\d+) succeeded")).as(result.toString())
			.isEqualTo("20000");
		assertThat(result.find("status codes: (\\d+) 2xx")).as(result.toString()).isEqualTo("20000");
		assertThat(this.server.guards().count(Guard.H2_MAX_CONCURRENT_STREAMS)).isZero();
		// h2load opens its 8 connections once and carries every stream over them.
		assertThat(this.server.metrics().tls().totals().full()).isEqualTo(8);
	}

}
