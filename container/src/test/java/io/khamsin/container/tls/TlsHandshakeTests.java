package io.khamsin.container.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.HandshakeCounts;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * TLS handshakes as real clients make them (the JDK's HttpClient, curl, openssl s_client) against a real listener,
 * on BoringSSL and on the JDK provider: protocols, suites, resumption and its figures, ALPN and the refusal of old
 * protocols and of cleartext.
 */
@Timeout(60)
class TlsHandshakeTests {

	private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

	/** What s_client prints once a handshake completes: {@code New, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256}. */
	static final String NEGOTIATED_PROTOCOL = "(?:New|Reused), (TLSv1\\.[0-9]), Cipher is";

	static final String NEGOTIATED_CIPHER = "(?:New|Reused), TLSv1\\.[0-9], Cipher is (\\S+)";

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	@TempDir
	static Path dir;

	private static Path caPem;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	private static TlsTestServer start(TlsProvider provider) {
		return TlsTestServer.start(TlsConfig.builder(localhost.material("the localhost certificate"))
			.provider(provider)
			.build());
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
	void theJdkHttpClientIsServedOverTls13AndTls12(TlsProvider provider) throws Exception {
		try (TlsTestServer server = start(provider)) {
			for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
				HttpResponse<String> response = client(protocol).send(
						HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/hello")).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).contains("protocol=" + protocol, "request=GET /hello 0");
			}
			assertThat(server.contexts().providerDescription())
				.startsWith((provider == TlsProvider.OPENSSL) ? "BoringSSL" : "JDK");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void curlIsServedOverTls13AndTls12(TlsProvider provider) {
		CommandLine.assumeInstalled("curl", "curl");
		try (TlsTestServer server = start(provider)) {
			String url = "https://localhost:" + server.port() + "/curl";
			CommandLine.Result tls13 = CommandLine.run(null, TOOL_TIMEOUT, "curl", "-sS", "--cacert", caPem.toString(),
					"--tlsv1.3", url);
			assertThat(tls13.exitCode()).as(tls13.toString()).isZero();
			assertThat(tls13.output()).contains("protocol=TLSv1.3", "request=GET /curl 0");
			CommandLine.Result tls12 = CommandLine.run(null, TOOL_TIMEOUT, "curl", "-sS", "--cacert", caPem.toString(),
					"--tlsv1.2", "--tls-max", "1.2", url);
			assertThat(tls12.exitCode()).as(tls12.toString()).isZero();
			assertThat(tls12.output()).contains("protocol=TLSv1.2");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void opensslIsOfferedTls13AndStrongTls12SuitesOnly(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		try (TlsTestServer server = start(provider)) {
			CommandLine.Result tls13 = sClient(server, "-tls1_3");
			assertThat(tls13.find(NEGOTIATED_PROTOCOL)).as(tls13.toString()).isEqualTo("TLSv1.3");
			assertThat(tls13.find(NEGOTIATED_CIPHER)).isIn("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
					"TLS_CHACHA20_POLY1305_SHA256");
			assertThat(tls13.output()).contains("Verify return code: 0 (ok)");
			CommandLine.Result tls12 = sClient(server, "-tls1_2");
			assertThat(tls12.find(NEGOTIATED_PROTOCOL)).as(tls12.toString()).isEqualTo("TLSv1.2");
			assertThat(tls12.find(NEGOTIATED_CIPHER)).matches("ECDHE-(ECDSA|RSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)");
			for (String weak : List.of("ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "AES128-GCM-SHA256")) {
				CommandLine.Result refused = sClient(server, "-tls1_2", "-cipher", weak);
				assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
				assertThat(refused.find(NEGOTIATED_CIPHER)).as(refused.toString()).isIn(null, "(NONE)");
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void tls11AndTls10AreRefusedAndCounted(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		try (TlsTestServer server = start(provider)) {
			for (String old : List.of("-tls1_1", "-tls1")) {
				CommandLine.Result refused = sClient(server, old, "-cipher", "DEFAULT:@SECLEVEL=0");
				assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
				assertThat(refused.output()).doesNotContain("BEGIN CERTIFICATE");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.PROTOCOL_VERSION))
					.isEqualTo(2));
			assertThat(server.figures().totals().full()).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aResumedHandshakeIsCountedAsResumed(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		for (String protocol : List.of("-tls1_3", "-tls1_2")) {
			try (TlsTestServer server = start(provider)) {
				Path session = dir.resolve("session-" + provider + protocol);
				CommandLine.Result first = sClientWithRequest(server, protocol, "-sess_out", session.toString());
				assertThat(first.output()).as(first.toString()).contains("New, TLSv1.", "protocol=TLSv1.");
				CommandLine.Result second = sClientWithRequest(server, protocol, "-sess_in", session.toString());
				assertThat(second.output()).as(second.toString()).contains("Reused, TLSv1.", "protocol=TLSv1.");
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					HandshakeCounts totals = server.figures().totals();
					assertThat(totals.full()).as(protocol).isEqualTo(1);
					assertThat(totals.resumed()).as(protocol).isEqualTo(1);
				});
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void alpnOffersHttp11AndNothingElse(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		try (TlsTestServer server = start(provider)) {
			CommandLine.Result both = sClient(server, "-alpn", "h2,http/1.1");
			assertThat(both.output()).as(both.toString()).contains("ALPN protocol: http/1.1");
			CommandLine.Result none = sClient(server);
			assertThat(none.output()).as(none.toString()).contains("No ALPN negotiated", "Verify return code: 0 (ok)");
			assertThat(none.find(NEGOTIATED_PROTOCOL)).isEqualTo("TLSv1.3");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aClientThatOffersOnlyProtocolsTheListenerDoesNotSpeakGetsTheNoApplicationProtocolAlert(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		try (TlsTestServer server = start(provider)) {
			for (String offered : List.of("foo", "h2", "h2,spdy/3")) {
				CommandLine.Result refused = sClient(server, "-alpn", offered);
				assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
				assertThat(refused.output()).as(refused.toString())
					.contains("no application protocol", "alert number 120")
					.doesNotContain("BEGIN CERTIFICATE");
			}
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
					server.figures().totals().failed(HandshakeFailure.NO_APPLICATION_PROTOCOL)).isEqualTo(3));
			assertThat(server.figures().totals().full()).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void plainHttpToTheTlsPortGetsA400ThatSaysToUseHttps(TlsProvider provider) throws Exception {
		try (TlsTestServer server = start(provider)) {
			HttpResponse<String> response = HttpClient.newHttpClient().send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/page")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.body()).contains("https://localhost:" + server.port() + "/");
			assertThat(response.headers().firstValue("connection")).hasValue("close");
			if (isInstalled("curl")) {
				CommandLine.Result curl = CommandLine.run(null, TOOL_TIMEOUT, "curl", "-sS", "-i",
						"http://127.0.0.1:" + server.port() + "/");
				assertThat(curl.output()).as(curl.toString()).contains("400 Bad Request", "speaks HTTPS only");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.CLEARTEXT))
					.isGreaterThanOrEqualTo(1));
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void bytesThatAreNoTlsRecordCloseTheConnection(TlsProvider provider) throws Exception {
		try (TlsTestServer server = start(provider); Socket socket = new Socket("127.0.0.1", server.port())) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(new byte[] { 0, 1, 2, 3, 4, 5 });
			assertThat(socket.getInputStream().read()).isEqualTo(-1);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.MALFORMED)).isEqualTo(1));
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aClientThatNeverCompletesItsHandshakeIsClosedAtTheTimeout(TlsProvider provider) throws Exception {
		TlsConfig config = TlsConfig.builder(localhost.material("the localhost certificate"))
			.provider(provider)
			.handshakeTimeout(Duration.ofMillis(500))
			.build();
		try (TlsTestServer server = TlsTestServer.start(config)) {
			try (Socket silent = new Socket("127.0.0.1", server.port());
					Socket halfHello = new Socket("127.0.0.1", server.port())) {
				silent.setSoTimeout(10_000);
				halfHello.setSoTimeout(10_000);
				halfHello.getOutputStream().write(new byte[] { 22, 3, 1, 0, 100, 1 });
				assertThat(silent.getInputStream().read()).isEqualTo(-1);
				assertThat(drain(halfHello.getInputStream())).isEqualTo(-1);
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.TIMEOUT)).isEqualTo(2));
			assertThat(server.guards().count(Guard.TLS_HANDSHAKE_TIMEOUT)).isEqualTo(2);
		}
	}

	private static int drain(InputStream in) throws IOException {
		int b;
		do {
			b = in.read();
		}
		while (b != -1);
		return b;
	}

	static boolean isInstalled(String tool) {
		for (String path : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
			if (java.nio.file.Files.isExecutable(Path.of(path, tool))) {
				return true;
			}
		}
		return false;
	}

	static CommandLine.Result sClient(TlsTestServer server, String... options) {
		List<String> command = new java.util.ArrayList<>(List.of("openssl", "s_client", "-connect",
				"127.0.0.1:" + server.port(), "-servername", "localhost", "-CAfile", caPem.toString()));
		command.addAll(List.of(options));
		return CommandLine.run("", TOOL_TIMEOUT, command);
	}

	static CommandLine.Result sClientWithRequest(TlsTestServer server, String... options) {
		List<String> command = new java.util.ArrayList<>(List.of("openssl", "s_client", "-connect",
				"127.0.0.1:" + server.port(), "-servername", "localhost", "-CAfile", caPem.toString(), "-ign_eof"));
		command.addAll(List.of(options));
		return CommandLine.run("GET /resume HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", TOOL_TIMEOUT,
				command);
	}

	static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
