package io.khamsin.boot.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.test.TlsTestServer;
import io.khamsin.container.tls.TlsClientAuth;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsContexts;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code server.ssl.*} and SSL bundles read through Boot's own {@code getSslBundle()} (a factory built on Boot's
 * base class, as khamsin's is), served to a real TLS client on BoringSSL and the JDK, and the misconfigurations
 * that fail the start with Boot's messages. Key stores and PEM files are made by the test and read from disk.
 */
@Timeout(60)
class BootTlsConfigTests {

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static TestCertificates.Issued other;

	private static Path keyStore;

	private static Path trustStore;

	@BeforeAll
	static void stores() throws Exception {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost");
		other = certificates.server("other.test");
		keyStore = dir.resolve("server.p12");
		java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
		store.load(null, null);
		store.setKeyEntry("other", other.key(), "secret".toCharArray(),
				other.chain().toArray(new java.security.cert.Certificate[0]));
		store.setKeyEntry("server", localhost.key(), "secret".toCharArray(),
				localhost.chain().toArray(new java.security.cert.Certificate[0]));
		try (var out = java.nio.file.Files.newOutputStream(keyStore)) {
			store.store(out, "secret".toCharArray());
		}
		trustStore = dir.resolve("trust.p12");
		java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
		trust.load(null, null);
		trust.setCertificateEntry("ca", certificates.ca());
		try (var out = java.nio.file.Files.newOutputStream(trustStore)) {
			trust.store(out, "secret".toCharArray());
		}
	}

	private static Ssl keyStoreSsl() {
		Ssl ssl = new Ssl();
		ssl.setKeyStore("file:" + keyStore);
		ssl.setKeyStorePassword("secret");
		ssl.setKeyStoreType("PKCS12");
		ssl.setKeyAlias("server");
		ssl.setKeyPassword("secret");
		return ssl;
	}

	private static KhamsinTlsProperties properties(TlsProvider provider) {
		KhamsinTlsProperties defaults = KhamsinTlsProperties.defaults();
		return new KhamsinTlsProperties(provider, false, defaults.sessionCacheSize(), defaults.sessionTimeout(),
				defaults.ticketKeyRotation(), defaults.handshakeTimeout());
	}

	private static String served(TlsConfig config, String serverName, String protocol) throws IOException {
		try (TlsTestServer server = TlsTestServer.start(config);
				TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), serverName,
						protocol)) {
			assertThat(client.get("/")).startsWith("HTTP/1.1 200");
			return client.serverCertificate().getSubjectX500Principal().getName();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aKeyStoreServesTheEntryOfItsKeyAlias(TlsProvider provider) throws Exception {
		TlsConfig config = new BundleReadingFactory(keyStoreSsl()).tlsConfig(properties(provider));
		assertThat(config.material().description()).isEqualTo("server.ssl");
		assertThat(config.provider()).isEqualTo(provider);
		for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
			assertThat(served(config, "localhost", protocol)).isEqualTo("CN=localhost");
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aPemCertificateAndKeyServe(TlsProvider provider) throws Exception {
		Path certificate = dir.resolve("pem-" + provider + ".crt");
		Path key = dir.resolve("pem-" + provider + ".key");
		localhost.writePem(certificate, key);
		Ssl ssl = new Ssl();
		ssl.setCertificate("file:" + certificate);
		ssl.setCertificatePrivateKey("file:" + key);
		assertThat(served(new BundleReadingFactory(ssl).tlsConfig(properties(provider)), null, "TLSv1.3"))
			.isEqualTo("CN=localhost");
	}

	@Test
	void anUnknownKeyAliasFailsWithBootsMessage() {
		Ssl ssl = keyStoreSsl();
		ssl.setKeyAlias("nope");
		assertThatIllegalStateException()
			.isThrownBy(() -> new BundleReadingFactory(ssl).tlsConfig(KhamsinTlsProperties.defaults()))
			.withMessageContaining("Keystore does not contain alias 'nope'");
	}

	@Test
	void sslEnabledWithNoKeyStoreFailsWithBootsMessage() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new BundleReadingFactory(new Ssl()).tlsConfig(KhamsinTlsProperties.defaults()))
			.withMessage("SSL is enabled but no trust material is configured for the default host");
	}

	@Test
	void aTrustStoreWithoutAKeyStoreFailsTheStartAndSaysWhatToConfigure() {
		Ssl ssl = new Ssl();
		ssl.setTrustStore("file:" + trustStore);
		ssl.setTrustStorePassword("secret");
		TlsConfig config = new BundleReadingFactory(ssl).tlsConfig(KhamsinTlsProperties.defaults());
		assertThatIllegalStateException().isThrownBy(() -> TlsContexts.build(config))
			.withMessageStartingWith("SSL is enabled but server.ssl holds no private key and certificate")
			.withMessageContaining("server.ssl.key-store");
	}

	@Test
	void aMissingKeyStoreFileFailsWithBootsMessage() {
		Ssl ssl = keyStoreSsl();
		ssl.setKeyStore("file:" + dir.resolve("missing.p12"));
		assertThatIllegalStateException()
			.isThrownBy(() -> new BundleReadingFactory(ssl).tlsConfig(KhamsinTlsProperties.defaults()))
			.withMessageContaining("Could not load store");
	}

	@Test
	void aMissingBundleFailsWithBootsMessage() {
		Ssl ssl = Ssl.forBundle("nope");
		assertThatExceptionOfType(NoSuchSslBundleException.class)
			.isThrownBy(() -> new BundleReadingFactory(ssl, new DefaultSslBundleRegistry())
				.tlsConfig(KhamsinTlsProperties.defaults()))
			.withMessageContaining("'nope'");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void enabledProtocolsAndCiphersAreTheOnesOffered(TlsProvider provider) throws Exception {
		Ssl ssl = keyStoreSsl();
		ssl.setEnabledProtocols(new String[] { "TLSv1.2" });
		ssl.setCiphers(new String[] { "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384" });
		TlsConfig config = new BundleReadingFactory(ssl).tlsConfig(properties(provider));
		try (TlsTestServer server = TlsTestServer.start(config)) {
			try (TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), null,
					"TLSv1.2")) {
				assertThat(client.socket().getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
			}
			assertThatExceptionOfType(IOException.class).isThrownBy(
					() -> TlsClient.connect(certificates.clientContext(null), server.port(), null, "TLSv1.3").close());
		}
	}

	@Test
	void tls11InEnabledProtocolsFailsTheStartAndNamesTheSetting() {
		Ssl ssl = keyStoreSsl();
		ssl.setEnabledProtocols(new String[] { "TLSv1.2", "TLSv1.1" });
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new BundleReadingFactory(ssl).tlsConfig(KhamsinTlsProperties.defaults()))
			.withMessageStartingWith("protocols of server.ssl holds TLSv1.1: khamsin speaks TLSv1.3 and TLSv1.2 only");
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void clientAuthNeedWithATrustStoreServesOnlyClientsWithATrustedCertificate(TlsProvider provider) throws Exception {
		Ssl ssl = keyStoreSsl();
		ssl.setClientAuth(Ssl.ClientAuth.NEED);
		ssl.setTrustStore("file:" + trustStore);
		ssl.setTrustStorePassword("secret");
		TlsConfig config = new BundleReadingFactory(ssl).tlsConfig(properties(provider));
		assertThat(config.clientAuth()).isEqualTo(TlsClientAuth.NEED);
		try (TlsTestServer server = TlsTestServer.start(config)) {
			try (TlsClient client = TlsClient.connect(certificates.clientContext(certificates.client("alice")),
					server.port(), "localhost", "TLSv1.3")) {
				assertThat(client.get("/")).contains("peer=CN=alice");
			}
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
				try (TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), "localhost",
						"TLSv1.3")) {
					client.get("/");
				}
			});
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void serverNameBundlesAreChosenByTheClientsHostName(TlsProvider provider) throws Exception {
		Path apiCertificate = dir.resolve("api-" + provider + ".crt");
		Path apiKey = dir.resolve("api-" + provider + ".key");
		certificates.server("api.test").writePem(apiCertificate, apiKey);
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();
		bundles.registerBundle("web", SslBundle.of(new JksSslStoreBundle(
				new JksSslStoreDetails("PKCS12", null, "file:" + keyStore, "secret"), null),
				org.springframework.boot.ssl.SslBundleKey.of("secret", "server")));
		bundles.registerBundle("api", SslBundle.of(new PemSslStoreBundle(
				new PemSslStoreDetails(null, "file:" + apiCertificate, "file:" + apiKey), null)));
		Ssl ssl = Ssl.forBundle("web");
		ssl.setServerNameBundles(List.of(new Ssl.ServerNameSslBundle("api.test", "api")));
		TlsConfig config = new BundleReadingFactory(ssl, bundles).tlsConfig(properties(provider));
		assertThat(config.material().description()).isEqualTo("SSL bundle 'web'");
		assertThat(config.serverNames()).containsOnlyKeys("api.test");
		assertThat(config.serverNames().get("api.test").description())
			.isEqualTo("SSL bundle 'api' of server name api.test");
		assertThat(served(config, "api.test", "TLSv1.3")).isEqualTo("CN=api.test");
		assertThat(served(config, "localhost", "TLSv1.3")).isEqualTo("CN=localhost");
	}

	@Test
	void selfSignedWithNoCertificateConfiguredMakesADevelopmentCertificate() throws Exception {
		KhamsinTlsProperties selfSigned = new KhamsinTlsProperties(TlsProvider.AUTO, true, 100, Duration.ofMinutes(5),
				Duration.ofMinutes(10), Duration.ofSeconds(3));
		TlsConfig config = new BundleReadingFactory(null).tlsConfig(selfSigned);
		assertThat(config).isNotNull();
		assertThat(config.material().description()).isEqualTo("the self-signed development certificate");
		assertThat(config.material().certificateChain().get(0).getSubjectX500Principal().getName())
			.contains("CN=localhost");
		assertThat(config.sessionCacheSize()).isEqualTo(100);
		assertThat(config.handshakeTimeout()).isEqualTo(Duration.ofSeconds(3));
		assertThat(new BundleReadingFactory(keyStoreSsl()).tlsConfig(selfSigned).material().description())
			.as("a configured certificate wins").isEqualTo("server.ssl");
	}

	@Test
	void noSslAndNoSelfSignedCertificateMeansCleartext() {
		assertThat(new BundleReadingFactory(null).tlsConfig(KhamsinTlsProperties.defaults())).isNull();
		Ssl disabled = keyStoreSsl();
		disabled.setEnabled(false);
		assertThat(new BundleReadingFactory(disabled).tlsConfig(KhamsinTlsProperties.defaults())).isNull();
	}

	/**
	 * A factory on Boot's own base class, so the bundles are read by Boot's {@code getSslBundle()} and
	 * {@code getServerNameSslBundles()} exactly as for khamsin's factory.
	 */
	static final class BundleReadingFactory extends AbstractReactiveWebServerFactory {

		BundleReadingFactory(Ssl ssl) {
			this(ssl, null);
		}

		BundleReadingFactory(Ssl ssl, DefaultSslBundleRegistry bundles) {
			setSsl(ssl);
			setSslBundles(bundles);
		}

		TlsConfig tlsConfig(KhamsinTlsProperties properties) {
			return BootTlsConfig.of(getSsl(), this::getSslBundle, this::getServerNameSslBundles, properties);
		}

		@Override
		public WebServer getWebServer(HttpHandler httpHandler) {
			throw new UnsupportedOperationException("reads bundles only");
		}

	}

}
