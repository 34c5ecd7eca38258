package io.khamsin.boot;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What Boot asks of its own containers' SSL ({@code server.ssl.*}), asked of khamsin's factory with real clients: a
 * key store on the class path and on the file system, a chosen key alias, client authentication wanted and needed
 * with and without a client certificate, PEM files, a certificate per SNI host name, a bundle updated while serving,
 * and the misconfigurations that must stop the start with Boot's own messages.
 */
@Timeout(60)
class KhamsinReactiveWebServerFactorySslTests {

	private static final String CLASSPATH_STORE = "classpath:io/khamsin/boot/server.jks";

	private static final HttpHandler ECHO = (request, response) -> response.writeWith(request.getBody());

	private static final HttpHandler PEER = (request, response) -> {
		X509Certificate[] peer = request.getSslInfo().getPeerCertificates();
		String subject = (peer != null) ? peer[0].getSubjectX500Principal().getName() : "none";
		return response.writeWith(Mono.just(response.bufferFactory().wrap(subject.getBytes())));
	};

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static Path serverStore;

	private static Path caStore;

	private WebServer webServer;

	@BeforeAll
	static void issue() throws Exception {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		serverStore = localhost.writePkcs12(dir.resolve("server.p12"), "khamsin", "changeit");
		KeyStore trust = KeyStore.getInstance("PKCS12");
		trust.load(null, null);
		trust.setCertificateEntry("ca", certificates.ca());
		caStore = dir.resolve("ca.p12");
		try (var out = Files.newOutputStream(caStore)) {
			trust.store(out, "changeit".toCharArray());
		}
	}

	@AfterEach
	void stop() {
		if (this.webServer != null) {
			this.webServer.destroy();
		}
	}

	@Test
	void aKeyStoreOnTheClassPathServesHttps() throws Exception {
		Ssl ssl = classPathKeyStore();
		assertThat(post(start(ssl, ECHO), classPathTrust(), "Hello World")).isEqualTo("Hello World");
	}

	@Test
	void aKeyStoreOnTheFileSystemServesHttps() throws Exception {
		Path copy = dir.resolve("server.jks");
		try (InputStream in = new ClassPathResource("io/khamsin/boot/server.jks").getInputStream()) {
			Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
		}
		Ssl ssl = classPathKeyStore();
		ssl.setKeyStore(copy.toString());
		assertThat(post(start(ssl, ECHO), classPathTrust(), "Hello World")).isEqualTo("Hello World");
	}

	@Test
	void theKeyOfTheConfiguredAliasIsTheOneServed() throws Exception {
		for (String alias : List.of("khamsin-test", "khamsin-other")) {
			Ssl ssl = classPathKeyStore();
			ssl.setKeyAlias(alias);
			int port = start(ssl, ECHO);
			HttpResponse<String> response = client(classPathTrust()).send(request(port, "alias"),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.body()).isEqualTo("alias");
			SSLSession session = response.sslSession().orElseThrow();
			String served = ((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName();
			assertThat(served).startsWith(alias.equals("khamsin-test") ? "CN=localhost" : "CN=other.localhost");
			this.webServer.destroy();
		}
	}

	@Test
	void anUnknownKeyAliasStopsTheStartWithBootsMessage() {
		Ssl ssl = classPathKeyStore();
		ssl.setKeyAlias("test-alias-404");
		assertThatException().isThrownBy(() -> start(ssl, ECHO))
			.withStackTraceContaining("Keystore does not contain alias 'test-alias-404'");
	}

	@Test
	void sslEnabledWithNoKeyStoreStopsTheStartWithBootsMessage() {
		Ssl ssl = new Ssl();
		ssl.setKeyPassword(null);
		assertThatIllegalStateException().isThrownBy(() -> start(ssl, ECHO))
			.withMessageContaining("SSL is enabled but no trust material is configured");
	}

	@Test
	void clientAuthWantServesAClientWithItsCertificateAndOneWithout() throws Exception {
		int port = start(clientAuth(Ssl.ClientAuth.WANT), PEER);
		assertThat(get(port, certificates.clientContext(certificates.client("alice")))).isEqualTo("CN=alice");
		assertThat(get(port, certificates.clientContext(null))).isEqualTo("none");
	}

	@Test
	void clientAuthNeedServesAClientWithItsCertificateAndRefusesOneWithout() throws Exception {
		int port = start(clientAuth(Ssl.ClientAuth.NEED), PEER);
		assertThat(get(port, certificates.clientContext(certificates.client("bob")))).isEqualTo("CN=bob");
		assertThatException().isThrownBy(() -> get(port, certificates.clientContext(null)))
			.isInstanceOf(IOException.class);
		TestCertificates stranger = TestCertificates.create("another CA");
		SSLContext untrusted = clientContext(stranger.client("mallory"), certificates);
		assertThatException().isThrownBy(() -> get(port, untrusted)).isInstanceOf(IOException.class);
	}

	@Test
	void pemCertificateAndKeyServeHttpsWithClientAuthNeed() throws Exception {
		Path certificate = dir.resolve("server.crt");
		Path key = dir.resolve("server.key");
		localhost.writePem(certificate, key);
		Path ca = certificates.writeCaPem(dir.resolve("ca.crt"));
		Ssl ssl = new Ssl();
		ssl.setClientAuth(Ssl.ClientAuth.NEED);
		ssl.setCertificate("file:" + certificate);
		ssl.setCertificatePrivateKey("file:" + key);
		ssl.setTrustCertificate("file:" + ca);
		int port = start(ssl, PEER);
		assertThat(get(port, certificates.clientContext(certificates.client("carol")))).isEqualTo("CN=carol");
		assertThatException().isThrownBy(() -> get(port, certificates.clientContext(null)))
			.isInstanceOf(IOException.class);
	}

	@Test
	void serverNameBundlesChooseTheCertificateByTheHostNameTheClientAsksFor() throws Exception {
		TestCertificates.Issued api = certificates.server("api.khamsin.test");
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();
		bundles.registerBundle("web", bundle(localhost));
		bundles.registerBundle("api", bundle(api));
		Ssl ssl = new Ssl();
		ssl.setBundle("web");
		ssl.setServerNameBundles(List.of(new Ssl.ServerNameSslBundle("api.khamsin.test", "api")));
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setSsl(ssl);
		factory.setSslBundles(bundles);
		int port = start(factory, ECHO);
		assertThat(served(port, "api.khamsin.test")).isEqualTo(api.certificate());
		assertThat(served(port, "localhost")).isEqualTo(localhost.certificate());
		assertThat(served(port, null)).isEqualTo(localhost.certificate());
	}

	@Test
	void aBundleUpdatedWhileServingIsServedToTheNextConnection() throws Exception {
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();
		bundles.registerBundle("web", bundle(localhost));
		Ssl ssl = new Ssl();
		ssl.setBundle("web");
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setSsl(ssl);
		factory.setSslBundles(bundles);
		int port = start(factory, ECHO);
		assertThat(served(port, "localhost")).isEqualTo(localhost.certificate());
		TestCertificates.Issued renewed = certificates.server("localhost", "127.0.0.1");
		bundles.updateBundle("web", bundle(renewed));
		assertThat(served(port, "localhost")).isEqualTo(renewed.certificate());
	}

	private int start(Ssl ssl, HttpHandler handler) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setSsl(ssl);
		return start(factory, handler);
	}

	private int start(KhamsinReactiveWebServerFactory factory, HttpHandler handler) {
		factory.addConfigCustomizers((config) -> config.reactors(1));
		this.webServer = factory.getWebServer(handler);
		this.webServer.start();
		return this.webServer.getPort();
	}

	private static Ssl classPathKeyStore() {
		Ssl ssl = new Ssl();
		ssl.setKeyStore(CLASSPATH_STORE);
		ssl.setKeyStorePassword("secret");
		ssl.setKeyPassword("password");
		return ssl;
	}

	private static Ssl clientAuth(Ssl.ClientAuth clientAuth) {
		Ssl ssl = new Ssl();
		ssl.setClientAuth(clientAuth);
		ssl.setKeyStore(serverStore.toString());
		ssl.setKeyStorePassword("changeit");
		ssl.setTrustStore(caStore.toString());
		ssl.setTrustStorePassword("changeit");
		return ssl;
	}

	private static SslBundle bundle(TestCertificates.Issued issued) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		store.load(null, null);
		store.setKeyEntry("server", issued.key(), new char[0], issued.chain().toArray(new X509Certificate[0]));
		return SslBundle.of(SslStoreBundle.of(store, "", null));
	}

	/** Trust of the key store on the class path: its two self-signed certificates. */
	private static SSLContext classPathTrust() throws Exception {
		KeyStore store = KeyStore.getInstance("JKS");
		try (InputStream in = new ClassPathResource("io/khamsin/boot/server.jks").getInputStream()) {
			store.load(in, "secret".toCharArray());
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(store);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

	private static SSLContext clientContext(TestCertificates.Issued client, TestCertificates trusted) throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(client.keyManagers().getKeyManagers(), trusted.trust().getTrustManagers(), null);
		return context;
	}

	private static HttpClient client(SSLContext context) {
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(context).build();
	}

	private static HttpRequest request(int port, String body) {
		return HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/test"))
			.header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static String post(int port, SSLContext context, String body) throws Exception {
		HttpResponse<String> response = client(context).send(request(port, body), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static String get(int port, SSLContext context) throws Exception {
		HttpResponse<String> response = client(context).send(
				HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/peer")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static X509Certificate served(int port, String serverName) throws IOException {
		try (TlsClient client = TlsClient.connect(certificates.clientContext(null), port, serverName, "TLSv1.3")) {
			return client.serverCertificate();
		}
	}

}
