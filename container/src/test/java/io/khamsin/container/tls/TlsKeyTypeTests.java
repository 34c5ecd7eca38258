package io.khamsin.container.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.LogCapture;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestCertificates.KeyType;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Certificates of each key type a user may configure, served to curl and openssl s_client on BoringSSL and on the
 * JDK, at start and after the files are replaced and reloaded.
 */
@Timeout(120)
class TlsKeyTypeTests {

	private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

	private static TestCertificates certificates;

	@TempDir
	static Path shared;

	private static Path caPem;

	@TempDir
	Path dir;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		caPem = certificates.writeCaPem(shared.resolve("ca.pem"));
	}

	static Stream<Arguments> keyTypesOnEachProvider() {
		List<Arguments> all = new ArrayList<>();
		for (TlsProvider provider : List.of(TlsProvider.OPENSSL, TlsProvider.AUTO, TlsProvider.JDK)) {
			for (KeyType type : List.of(KeyType.EC, KeyType.RSA, KeyType.ED25519)) {
				all.add(Arguments.of(provider, type));
			}
		}
		return all.stream();
	}

	@ParameterizedTest(name = "{1} on {0}")
	@MethodSource("keyTypesOnEachProvider")
	void eachKeyTypeIsServedToCurlAndOpensslAtStartAndAfterAReload(TlsProvider provider, KeyType type) {
		CommandLine.assumeInstalled("openssl", "openssl");
		CommandLine.assumeInstalled("curl", "curl");
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = certificates.server(type, "localhost", "127.0.0.1");
		first.writePem(certificate, key);
		try (TlsTestServer server = TlsTestServer
			.start(TlsConfig.builder(TlsMaterial.fromPem(certificate, key)).provider(provider).build())) {
			assertServed(server, first, type);
			TestCertificates.Issued second = certificates.server(type, "localhost", "127.0.0.1");
			second.writePem(certificate, key);
			server.contexts().update(null, TlsMaterial.fromPem(certificate, key));
			assertServed(server, second, type);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(names = { "ED448", "RSASSA_PSS" })
	void autoServesAKeyBoringSslCannotSignWithOnTheJdkAndSaysWhyAtStart(KeyType type) {
		CommandLine.assumeInstalled("openssl", "openssl");
		CommandLine.assumeInstalled("curl", "curl");
		TestCertificates.Issued other = certificates.server(type, "localhost", "127.0.0.1");
		TlsConfig config = TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("server.ssl"))
			.serverName("other.test", other.material("SSL bundle 'other'"))
			.build();
		try (LogCapture log = LogCapture.of(TlsContexts.class); TlsTestServer server = TlsTestServer.start(config)) {
			assertThat(log.messages(Level.INFO)).anySatisfy((line) -> assertThat(line).startsWith(
					"khamsin serves SSL bundle 'other' on JDK")
				.contains("BoringSSL cannot sign with its " + keyName(type) + " key"));
			assertThat(server.contexts().providerReason()).contains("SSL bundle 'other'", keyName(type));
			CommandLine.Result named = sClient(server, "-servername", "other.test");
			assertThat(named.find("Peer signature type: (\\S+)")).as(named.toString()).isEqualTo(signatureType(type));
			assertThat(servedCertificate(named)).isEqualTo(other.certificate());
			CommandLine.Result unnamed = sClient(server);
			assertThat(unnamed.find("Peer signature type: (\\S+)")).as(unnamed.toString()).isEqualTo("ECDSA");
			TestCertificates.Issued reloaded = certificates.server(type, "localhost", "127.0.0.1");
			server.contexts().update(null, reloaded.material("server.ssl"));
			assertServed(server, reloaded, type);
			assertThat(log.messages(Level.INFO)).anySatisfy((line) -> assertThat(line)
				.startsWith("khamsin now serves server.ssl for the default host on JDK")
				.contains("BoringSSL cannot sign with its " + keyName(type) + " key"));
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(names = { "ED448", "RSASSA_PSS" })
	void openSslRefusesToStartWithAKeyItCannotSignWithAndSaysWhatToDo(KeyType type) {
		TlsConfig config = TlsConfig.builder(certificates.server(type, "localhost").material("SSL bundle 'web'"))
			.provider(TlsProvider.OPENSSL)
			.build();
		assertThatIllegalStateException().isThrownBy(() -> TlsContexts.build(config))
			.withMessageContaining("SSL bundle 'web'")
			.withMessageContaining("BoringSSL cannot sign with its " + keyName(type) + " key")
			.withMessageContaining("khamsin.tls.provider=auto");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aKeyThatIsNotTheCertificatesFailsTheStartInsteadOfEveryHandshake(TlsProvider provider) {
		TestCertificates.Issued issued = certificates.server("localhost");
		TestCertificates.Issued stranger = certificates.server("localhost");
		TlsConfig config = TlsConfig.builder(TlsMaterial.of(stranger.key(), issued.chain(), "SSL bundle 'mixed'"))
			.provider(provider)
			.build();
		assertThatIllegalStateException().isThrownBy(() -> TlsContexts.build(config))
			.withMessageContaining("SSL bundle 'mixed'")
			.withMessageContaining("check that the private key belongs to the certificate");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aProtocolWithNoSuiteTheKeyCanSignForFailsTheStartAndSaysWhich(TlsProvider provider) {
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("SSL bundle 'web'"))
			.ciphers(List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"))
			.provider(provider)
			.build();
		assertThatIllegalStateException().isThrownBy(() -> TlsContexts.build(config))
			.withMessageContaining("SSL bundle 'web'")
			.withMessageContaining("(TLSv1.2: ")
			.withMessageContaining("ECDHE_ECDSA suites for EC and Ed25519 keys");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aReloadThatCannotServeIsRefusedAndThePreviousCertificateKeepsServing(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		TestCertificates.Issued first = certificates.server("localhost", "127.0.0.1");
		TlsConfig config = TlsConfig.builder(first.material("server.ssl")).provider(provider).build();
		try (TlsTestServer server = TlsTestServer.start(config)) {
			TestCertificates.Issued stranger = certificates.server("localhost");
			assertThatIllegalStateException()
				.isThrownBy(() -> server.contexts()
					.update(null, TlsMaterial.of(stranger.key(), first.chain(), "server.ssl")))
				.withMessageContaining("check that the private key belongs to the certificate");
			if (provider == TlsProvider.OPENSSL) {
				assertThatIllegalStateException()
					.isThrownBy(() -> server.contexts()
						.update(null, certificates.server(KeyType.ED448, "localhost").material("server.ssl")))
					.withMessageContaining("BoringSSL cannot sign with its Ed448 key");
			}
			assertThat(servedCertificate(sClient(server))).isEqualTo(first.certificate());
		}
	}

	private static String keyName(KeyType type) {
		return switch (type) {
			case ED448 -> "Ed448";
			case RSASSA_PSS -> "RSASSA-PSS";
			default -> type.name();
		};
	}

	private static void assertServed(TlsTestServer server, TestCertificates.Issued expected, KeyType type) {
		for (String protocol : List.of("-tls1_3", "-tls1_2")) {
			CommandLine.Result sClient = sClient(server, protocol);
			assertThat(sClient.output()).as(sClient.toString()).contains("Verify return code: 0 (ok)");
			assertThat(sClient.find("Peer signature type: (\\S+)")).as(sClient.toString())
				.isEqualTo(signatureType(type));
			assertThat(servedCertificate(sClient)).isEqualTo(expected.certificate());
		}
		for (String protocol : List.of("--tlsv1.3", "--tlsv1.2")) {
			CommandLine.Result curl = CommandLine.run(null, TOOL_TIMEOUT, "curl", "-sS", "--cacert", caPem.toString(),
					protocol, "--tls-max", protocol.substring(6), "https://localhost:" + server.port() + "/key");
			assertThat(curl.exitCode()).as(curl.toString()).isZero();
			assertThat(curl.output()).contains("request=GET /key 0");
		}
	}

	private static String signatureType(KeyType type) {
		return switch (type) {
			case EC -> "ECDSA";
			case RSA, RSA_4096 -> "RSA-PSS";
			case ED25519 -> "ed25519";
			case ED448 -> "ed448";
			case RSASSA_PSS -> "RSA-PSS";
		};
	}

	static CommandLine.Result sClient(TlsTestServer server, String... options) {
		List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + server.port(),
				"-servername", "localhost", "-CAfile", caPem.toString()));
		command.addAll(List.of(options));
		return CommandLine.run("", TOOL_TIMEOUT, command);
	}

	static X509Certificate servedCertificate(CommandLine.Result sClient) {
		String output = sClient.output();
		int start = output.indexOf("-----BEGIN CERTIFICATE-----");
		int end = output.indexOf("-----END CERTIFICATE-----");
		assertThat(start).as(sClient.toString()).isNotNegative();
		String pem = output.substring(start, end + "-----END CERTIFICATE-----".length());
		try {
			return (X509Certificate) CertificateFactory.getInstance("X.509")
				.generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

}
