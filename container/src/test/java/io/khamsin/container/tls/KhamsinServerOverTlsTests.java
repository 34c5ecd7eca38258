package io.khamsin.container.tls;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.test.TlsInFront;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The TLS handlers in front of the real engine's HTTP/1.1 pipeline and WebFlux routes, served to curl and the
 * JDK's HttpClient over TLS 1.3 and 1.2, on BoringSSL and the JDK.
 */
@Timeout(60)
class KhamsinServerOverTlsTests {

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static Path caPem;

	private KhamsinServer server;

	private TlsHandlers tls;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	private void start(TlsProvider provider) {
		this.tls = new TlsHandlers(
				TlsContexts.build(TlsConfig.builder(localhost.material("localhost")).provider(provider).build()),
				TlsFigures.create());
		this.server = KhamsinServer.create(
				KhamsinServerConfig.builder().reactors(2).customizer(new TlsInFront(this.tls)).build(),
				new TestRoutes(dir.resolve("unused")).handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	private URI uri(String path) {
		return URI.create("https://localhost:" + this.server.port() + path);
	}

	private static HttpClient client(String protocol) {
		SSLParameters parameters = new SSLParameters();
		parameters.setProtocols(new String[] { protocol });
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.sslContext(certificates.clientContext(null))
			.sslParameters(parameters)
			.build();
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void theJdkHttpClientGetsAndUploadsOverTls13AndTls12(TlsProvider provider) throws Exception {
		start(provider);
		byte[] upload = new byte[4 * 1024 * 1024 + 3];
		new Random(13).nextBytes(upload);
		for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
			HttpClient client = client(protocol);
			HttpResponse<String> hello = client.send(HttpRequest.newBuilder(uri("/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(hello.statusCode()).isEqualTo(200);
			assertThat(hello.body()).isEqualTo("Hello, World!");
			HttpResponse<String> digest = client.send(
					HttpRequest.newBuilder(uri("/digest")).POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(digest.body()).isEqualTo(upload.length + " " + TestRoutes.sha256Hex(upload));
			HttpResponse<String> stream = client.send(HttpRequest.newBuilder(uri("/stream?count=3")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(stream.statusCode()).isEqualTo(200);
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.tls.figures().totals().full()).isGreaterThanOrEqualTo(2));
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void curlIsServedOverTls13AndTls12(TlsProvider provider) {
		CommandLine.assumeInstalled("curl", "curl");
		start(provider);
		for (List<String> version : List.of(List.of("--tlsv1.3"), List.of("--tlsv1.2", "--tls-max", "1.2"))) {
			List<String> command = new java.util.ArrayList<>(List.of("curl", "-sS", "--cacert", caPem.toString()));
			command.addAll(version);
			command.add(uri("/plaintext").toString());
			command.add(uri("/plaintext").toString());
			CommandLine.Result result = CommandLine.run(null, Duration.ofSeconds(30), command);
			assertThat(result.exitCode()).as(result.toString()).isZero();
			assertThat(result.output()).isEqualTo("Hello, World!Hello, World!");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void oneConnectionServesManyRequests(TlsProvider provider) throws Exception {
		start(provider);
		try (TlsClient client = TlsClient.connect(certificates.clientContext(null), this.server.port(), "localhost",
				"TLSv1.3")) {
			for (int i = 0; i < 20; i++) {
				assertThat(client.get("/plaintext")).isEqualTo("HTTP/1.1 200 OK\nHello, World!");
			}
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.tls.figures().totals().full()).isEqualTo(1));
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void plainHttpToTheTlsPortIsRefusedWithA400(TlsProvider provider) throws Exception {
		start(provider);
		HttpResponse<String> response = HttpClient.newHttpClient().send(
				HttpRequest.newBuilder(URI.create("http://localhost:" + this.server.port() + "/plaintext")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("https://localhost:" + this.server.port());
	}

}
