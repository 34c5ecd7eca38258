package io.khamsin.container.tls;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.net.ssl.SSLParameters;

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
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.transport.ListenerInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * A {@code KhamsinServer} configured with TLS, serving the engine's WebFlux routes to curl and the JDK's HttpClient
 * over TLS 1.3 and 1.2, on BoringSSL and the JDK: requests see {@code https} and their TLS session, files leave in
 * buffers (the TLS handler cannot encrypt a file region), server-sent events arrive one by one, and the start line
 * and listener say what runs.
 */
@Timeout(60)
class KhamsinServerOverTlsTests {

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static Path caPem;

	private static Path file;

	private static byte[] fileBytes;

	private KhamsinServer server;

	@BeforeAll
	static void issue() throws Exception {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
		fileBytes = new byte[300_000];
		new Random(7).nextBytes(fileBytes);
		file = Files.write(dir.resolve("download.bin"), fileBytes);
	}

	private void start(TlsProvider provider) {
		start(TlsConfig.builder(localhost.material("localhost")).provider(provider).build());
	}

	private void start(TlsConfig tls) {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(2).tls(tls).build(),
				new TestRoutes(file).handler());
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
			assertThat(hello.sslSession().orElseThrow().getProtocol()).isEqualTo(protocol);
			HttpResponse<String> digest = client.send(
					HttpRequest.newBuilder(uri("/digest")).POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(digest.body()).isEqualTo(upload.length + " " + TestRoutes.sha256Hex(upload));
			HttpResponse<String> stream = client.send(HttpRequest.newBuilder(uri("/stream?count=3")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(stream.body()).isEqualTo("part-1\npart-2\npart-3\n");
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.server.metrics().tls().totals().full()).isGreaterThanOrEqualTo(2));
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void curlIsServedOverTls13AndTls12(TlsProvider provider) {
		CommandLine.assumeInstalled("curl", "curl");
		start(provider);
		for (List<String> version : List.of(List.of("--tlsv1.3"), List.of("--tlsv1.2", "--tls-max", "1.2"))) {
			List<String> command = new ArrayList<>(List.of("curl", "-sS", "--cacert", caPem.toString()));
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
	void aRequestSeesHttpsAndItsTlsSessionWithTheClientCertificate(TlsProvider provider) throws Exception {
		start(TlsConfig.builder(localhost.material("localhost").withTrust(certificates.trust()))
			.provider(provider)
			.clientAuth(TlsClientAuth.WANT)
			.build());
		TestCertificates.Issued alice = certificates.client("alice");
		try (TlsClient client = TlsClient.connect(certificates.clientContext(alice), this.server.port(), "localhost",
				"TLSv1.3")) {
			String answer = client.get("/connection");
			assertThat(answer).startsWith("HTTP/1.1 200 OK\n").contains("scheme=https\n", "peer=CN=alice\n");
			assertThat(answer).doesNotContain("session=none");
		}
		try (TlsClient client = TlsClient.connect(certificates.clientContext(null), this.server.port(), "localhost",
				"TLSv1.2")) {
			assertThat(client.get("/connection")).contains("scheme=https\n", "peer=none\n");
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
			.untilAsserted(() -> assertThat(this.server.metrics().tls().totals().full()).isEqualTo(1));
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aFileIsSentInBuffersThatTheTlsHandlerEncrypts(TlsProvider provider) throws Exception {
		start(provider);
		HttpResponse<byte[]> response = client("TLSv1.3").send(HttpRequest.newBuilder(uri("/file")).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-length")).hasValue(Integer.toString(fileBytes.length));
		assertThat(response.body()).isEqualTo(fileBytes);
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void serverSentEventsArriveOneByOne(TlsProvider provider) throws Exception {
		start(provider);
		LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
		HttpResponse<Stream<String>> response = client("TLSv1.3").send(HttpRequest.newBuilder(uri("/sse")).build(),
				HttpResponse.BodyHandlers.ofLines());
		assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		Thread reader = new Thread(() -> response.body().filter((line) -> !line.isEmpty()).forEach(lines::add));
		reader.start();
		for (int i = 0; i < 3; i++) {
			assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("data:event-" + i);
		}
		reader.join(10_000);
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
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
				this.server.metrics().tls().totals().failed(HandshakeFailure.CLEARTEXT)).isEqualTo(1));
	}

	@Test
	void aConnectionClosedAtTheHandshakeTimeoutIsAGuardEventOfTheServer() throws Exception {
		start(TlsConfig.builder(localhost.material("localhost")).handshakeTimeout(Duration.ofMillis(500)).build());
		try (Socket silent = new Socket("127.0.0.1", this.server.port())) {
			silent.setSoTimeout(10_000);
			assertThat(silent.getInputStream().read()).isEqualTo(-1);
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.server.guards().count(Guard.TLS_HANDSHAKE_TIMEOUT)).isEqualTo(1));
		assertThat(this.server.metrics().tls().totals().failed(HandshakeFailure.TIMEOUT)).isEqualTo(1);
	}

	@Test
	void theStartLineAndTheListenerSayHttpsAndWhichProviderRunsAndWhy() {
		start(TlsProvider.AUTO);
		assertThat(this.server.describe()).matches(
				"port \\d+ \\(https, http/1\\.1, TLS on BoringSSL: netty-tcnative loaded\\) with 2 reactors \\(.*\\)");
		ListenerInfo listener = this.server.listeners().get(0);
		assertThat(listener.secure()).isTrue();
		assertThat(listener.protocols()).containsExactly("http/1.1");
		assertThat(listener.tls()).startsWith("BoringSSL");
		this.server.stop();
		start(TlsProvider.JDK);
		assertThat(this.server.describe()).contains("(https, http/1.1, TLS on JDK " + Runtime.version().feature()
				+ ": khamsin.tls.provider=jdk)");
	}

	@Test
	void anAlpnProtocolThatTheServerDoesNotSpeakFailsTheStart() {
		TlsConfig tls = TlsConfig.builder(localhost.material("localhost")).alpnProtocols(List.of("h2", "http/1.1")).build();
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).tls(tls).build(),
				new TestRoutes(file).handler());
		assertThatIllegalStateException().isThrownBy(this.server::start)
			.withMessage("TLS offers h2 by ALPN, but this server speaks only http/1.1: remove it from the ALPN protocols");
		assertThat(this.server.isRunning()).isFalse();
	}

	@Test
	void materialWithoutAKeyFailsWhenTheServerIsMade() {
		TlsMaterial empty = TlsMaterial.of(emptyKeyStore(), new char[0],
				"SSL bundle 'empty'");
		assertThatIllegalStateException()
			.isThrownBy(() -> KhamsinServer.create(KhamsinServerConfig.builder().tls(TlsConfig.builder(empty).build())
				.build(), new TestRoutes(file).handler()))
			.withMessageStartingWith("SSL is enabled but SSL bundle 'empty' holds no private key and certificate");
	}

	private static java.security.KeyStore emptyKeyStore() {
		try {
			java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
			store.load(null, null);
			return store;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
