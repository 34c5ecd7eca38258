package io.khamsin.container.tls;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import ch.qos.logback.classic.Level;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.LogCapture;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsMaterial;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * What a failed handshake leaves for the operator, on both providers: a failure that is not the client's doing is
 * logged at WARN once with its cause and what to do, and counted; one the client causes is counted only; and a
 * connection that closes before it sends a byte (a health check, a port scan) is no handshake at all, counted apart.
 */
@Timeout(60)
class HandshakeFailureTests {

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static Path caPem;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aConnectionClosedBeforeItSentAByteIsCountedApartAndNotAsAFailedHandshake(TlsProvider provider)
			throws Exception {
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(provider)
			.build();
		try (LogCapture log = LogCapture.ofPackage("io.khamsin.container.tls");
				TlsTestServer server = TlsTestServer.start(config)) {
			for (int i = 0; i < 3; i++) {
				new Socket("127.0.0.1", server.port()).close();
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().closedBeforeHello()).isEqualTo(3));
			assertThat(server.figures().totals().failures()).allSatisfy((reason, count) -> assertThat(count).isZero());
			assertThat(log.messages(Level.WARN)).isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aFailureOnTheServersSideIsLoggedOnceWithItsCauseAndWhatToDo(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		TestCertificates.Issued issued = certificates.server("localhost", "127.0.0.1");
		FailingKeyManager keys = new FailingKeyManager(issued);
		TlsMaterial material = TlsMaterial.of(new KeyManagerFactoryWrapper(keys), "SSL bundle 'hsm'");
		TlsConfig config = TlsConfig.builder(material).provider(provider).build();
		try (LogCapture log = LogCapture.ofPackage("io.khamsin.container.tls");
				TlsTestServer server = TlsTestServer.start(config)) {
			keys.fail();
			for (int i = 0; i < 3; i++) {
				CommandLine.Result refused = CommandLine.run("", Duration.ofSeconds(30), "openssl", "s_client",
						"-connect", "127.0.0.1:" + server.port(), "-servername", "localhost", "-CAfile",
						caPem.toString());
				assertThat(refused.output()).as(refused.toString()).doesNotContain("BEGIN CERTIFICATE");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.OTHER)).isEqualTo(3));
			assertThat(log.messages(Level.WARN)).singleElement()
				.satisfies((line) -> assertThat(line).contains("TLS handshakes for the default host (other)")
					.containsAnyOf("NO_CERTIFICATE_SET", "No available authentication scheme")
					.contains("not the client's doing", "logging.level.io.khamsin.container.tls=debug"));
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void failuresTheClientCausesAreCountedButNotLogged(TlsProvider provider) throws Exception {
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(provider)
			.build();
		try (LogCapture log = LogCapture.ofPackage("io.khamsin.container.tls");
				TlsTestServer server = TlsTestServer.start(config)) {
			HttpClient untrusting = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			assertThatException().isThrownBy(() -> untrusting.send(
					HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/")).build(),
					HttpResponse.BodyHandlers.ofString()));
			HttpClient.newHttpClient().send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/")).build(),
					HttpResponse.BodyHandlers.ofString());
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failedTotal()).isEqualTo(2));
			assertThat(server.figures().totals().failed(HandshakeFailure.CLEARTEXT)).isEqualTo(1);
			assertThat(log.messages(Level.WARN)).isEmpty();
		}
	}

	/** A key store whose key goes away while the server runs, as a hardware token that is pulled. */
	static final class FailingKeyManager extends X509ExtendedKeyManager {

		private final X509ExtendedKeyManager delegate;

		private volatile boolean failing;

		FailingKeyManager(TestCertificates.Issued issued) {
			this.delegate = (X509ExtendedKeyManager) issued.keyManagers().getKeyManagers()[0];
		}

		void fail() {
			this.failing = true;
		}

		@Override
		public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
			return this.failing ? null : this.delegate.chooseEngineServerAlias(keyType, issuers, engine);
		}

		@Override
		public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
			return this.failing ? null : this.delegate.chooseServerAlias(keyType, issuers, socket);
		}

		@Override
		public String[] getServerAliases(String keyType, Principal[] issuers) {
			return this.delegate.getServerAliases(keyType, issuers);
		}

		@Override
		public String[] getClientAliases(String keyType, Principal[] issuers) {
			return this.delegate.getClientAliases(keyType, issuers);
		}

		@Override
		public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
			return this.delegate.chooseClientAlias(keyTypes, issuers, socket);
		}

		@Override
		public X509Certificate[] getCertificateChain(String alias) {
			return this.failing ? null : this.delegate.getCertificateChain(alias);
		}

		@Override
		public PrivateKey getPrivateKey(String alias) {
			return this.failing ? null : this.delegate.getPrivateKey(alias);
		}

	}

}
