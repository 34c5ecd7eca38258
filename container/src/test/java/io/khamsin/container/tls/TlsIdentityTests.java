package io.khamsin.container.tls;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.metrics.HandshakeCounts;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Which identity a real connection gets and what it learns of its peer: client certificates required or wanted,
 * the identity chosen by SNI host name, and material replaced while the server runs, on BoringSSL and the JDK.
 */
@Timeout(60)
class TlsIdentityTests {

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static TestCertificates.Issued alice;

	@TempDir
	Path dir;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		alice = certificates.client("alice");
	}

	private static TlsConfig.Builder config(TlsProvider provider) {
		return TlsConfig.builder(localhost.material("the localhost certificate").withTrust(certificates.trust()))
			.provider(provider);
	}

	private static HttpClient client(TestCertificates.Issued certificate, String protocol) {
		SSLParameters parameters = new SSLParameters();
		parameters.setProtocols(new String[] { protocol });
		return HttpClient.newBuilder()
			.sslContext(certificates.clientContext(certificate))
			.sslParameters(parameters)
			.version(HttpClient.Version.HTTP_1_1)
			.build();
	}

	private static HttpResponse<String> get(HttpClient client, TlsTestServer server) throws Exception {
		return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/who")).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void clientAuthNeedServesAClientWithATrustedCertificateAndRefusesOneWithout(TlsProvider provider) throws Exception {
		try (TlsTestServer server = TlsTestServer.start(config(provider).clientAuth(TlsClientAuth.NEED).build())) {
			for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
				HttpResponse<String> response = get(client(alice, protocol), server);
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).contains("peer=CN=alice", "protocol=" + protocol);
				assertThatExceptionOfType(IOException.class).as(protocol).isThrownBy(() -> fetch(null, server, protocol));
			}
			TestCertificates stranger = TestCertificates.create("another CA");
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> fetch(stranger.client("mallory"), server, "TLSv1.3"));
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				HandshakeCounts totals = server.figures().totals();
				assertThat(totals.failed(HandshakeFailure.CLIENT_CERTIFICATE)).isEqualTo(3);
				assertThat(totals.full() + totals.resumed()).isEqualTo(2);
			});
		}
	}

	/** One request on a connection of its own; in TLS 1.3 a refused certificate shows at the first read. */
	private static String fetch(TestCertificates.Issued certificate, TlsTestServer server, String protocol)
			throws IOException {
		try (TlsClient client = TlsClient.connect(certificates.clientContext(certificate), server.port(), "localhost",
				protocol)) {
			return client.get("/who");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void clientAuthWantServesClientsWithAndWithoutACertificate(TlsProvider provider) throws Exception {
		try (TlsTestServer server = TlsTestServer.start(config(provider).clientAuth(TlsClientAuth.WANT).build())) {
			for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
				assertThat(get(client(alice, protocol), server).body()).contains("peer=CN=alice");
				String anonymous = get(client(null, protocol), server).body();
				assertThat(anonymous).contains("peer=none");
				if (protocol.equals("TLSv1.2") && provider == TlsProvider.JDK) {
					// BoringSSL resumes by ticket and gives the session no id, as under Reactor Netty.
					assertThat(anonymous).containsPattern("session=[0-9a-f]{64}\n");
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void clientAuthNoneAsksForNoCertificate(TlsProvider provider) throws Exception {
		try (TlsTestServer server = TlsTestServer.start(config(provider).build())) {
			assertThat(get(client(alice, "TLSv1.3"), server).body()).contains("peer=none");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void sniChoosesTheIdentityOfTheHostName(TlsProvider provider) throws Exception {
		TlsConfig tls = config(provider).serverName("api.test", certificates.server("api.test").material("api"))
			.serverName("*.wild.test", certificates.server("*.wild.test").material("wild"))
			.build();
		try (TlsTestServer server = TlsTestServer.start(tls)) {
			for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
				assertThat(subject(server, "api.test", protocol)).isEqualTo("CN=api.test");
				assertThat(subject(server, "API.Test", protocol)).isEqualTo("CN=api.test");
				assertThat(subject(server, "one.wild.test", protocol)).isEqualTo("CN=*.wild.test");
				assertThat(subject(server, "other.test", protocol)).isEqualTo("CN=localhost");
				assertThat(subject(server, null, protocol)).isEqualTo("CN=localhost");
			}
			if (TlsHandshakeTests.isInstalled("openssl")) {
				CommandLine.Result sClient = CommandLine.run("", Duration.ofSeconds(30), "openssl", "s_client",
						"-connect", "127.0.0.1:" + server.port(), "-servername", "api.test");
				assertThat(sClient.output()).as(sClient.toString()).contains("subject=CN = api.test");
			}
		}
	}

	private static String subject(TlsTestServer server, String serverName, String protocol) throws IOException {
		try (TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), serverName,
				protocol)) {
			String body = client.get("/sni");
			assertThat(body).startsWith("HTTP/1.1 200");
			return client.serverCertificate().getSubjectX500Principal().getName();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aReplacedCertificateIsServedToTheNextConnectionWhileOpenOnesGoOn(TlsProvider provider) throws Exception {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = certificates.server("localhost");
		first.writePem(certificate, key);
		try (TlsTestServer server = TlsTestServer
			.start(TlsConfig.builder(TlsMaterial.fromPem(certificate, key)).provider(provider).build());
				TlsClient open = TlsClient.connect(certificates.clientContext(null), server.port(), "localhost",
						"TLSv1.3")) {
			assertThat(open.serverCertificate()).isEqualTo(first.certificate());
			TestCertificates.Issued second = certificates.server("localhost");
			second.writePem(certificate, key);
			server.contexts().update(null, TlsMaterial.fromPem(certificate, key));
			try (TlsClient next = TlsClient.connect(certificates.clientContext(null), server.port(), "localhost",
					"TLSv1.3")) {
				assertThat(next.serverCertificate()).isEqualTo(second.certificate());
				assertThat(next.get("/after")).startsWith("HTTP/1.1 200");
			}
			assertThat(open.get("/still-open")).startsWith("HTTP/1.1 200");
			assertThat(open.serverCertificate()).isEqualTo(first.certificate());
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aNewServerNameIsServedAfterAnUpdate(TlsProvider provider) throws Exception {
		try (TlsTestServer server = TlsTestServer.start(config(provider).build())) {
			assertThat(subject(server, "late.test", "TLSv1.3")).isEqualTo("CN=localhost");
			java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
			server.contexts().addUpdateListener((name, material) -> heard.add(name + " " + material.description()));
			server.contexts().update("Late.Test", certificates.server("late.test").material("late"));
			assertThat(heard).containsExactly("late.test late");
			assertThat(server.contexts().materials()).containsKeys(null, "late.test");
			assertThat(subject(server, "late.test", "TLSv1.3")).isEqualTo("CN=late.test");
			assertThat(subject(server, null, "TLSv1.3")).isEqualTo("CN=localhost");
		}
	}

	@Test
	void materialWithoutAKeyIsRefusedAndTheOldOneKeepsServing() throws Exception {
		try (TlsTestServer server = TlsTestServer.start(config(TlsProvider.AUTO).build())) {
			KeyManagerFactory empty = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
			store.load(null, null);
			empty.init(store, new char[0]);
			assertThatIllegalStateException()
				.isThrownBy(() -> server.contexts().update(null, TlsMaterial.of(empty, "SSL bundle 'empty'")))
				.withMessageContaining("SSL bundle 'empty' holds no private key");
			assertThat(subject(server, null, "TLSv1.3")).isEqualTo("CN=localhost");
		}
	}

	@Test
	void pemFilesWithAnEncryptedOrMissingKeySayWhatIsWrong() throws Exception {
		Path certificate = this.dir.resolve("only.crt");
		Path key = this.dir.resolve("none.key");
		localhost.writePem(certificate, this.dir.resolve("ignored.key"));
		Files.writeString(key, "not a key\n");
		assertThatIllegalStateException().isThrownBy(() -> TlsMaterial.fromPem(certificate, key))
			.withMessageContaining("holds no unencrypted PRIVATE KEY block");
		assertThatIllegalStateException().isThrownBy(() -> TlsMaterial.fromPem(key, certificate))
			.withMessageContaining("holds no CERTIFICATE block");
	}

}
