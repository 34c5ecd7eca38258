package io.khamsin.boot.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.context.annotation.Configuration;

import io.khamsin.container.test.LogCapture;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestCertificates.KeyType;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.test.TlsTestServer;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsContexts;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A PEM bundle with {@code reload-on-update=true}, watched by Boot's own SSL auto-configuration: when its files are
 * replaced on disk, the next connection gets the new certificate without a restart, whatever its key type and
 * provider, and a broken update leaves the previous certificate serving.
 */
@Timeout(90)
class SslBundleReloadTests {

	@TempDir
	Path dir;

	private final TestCertificates certificates = TestCertificates.create();

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(KhamsinTlsProperties.class)
	static class TlsPropertiesConfiguration {

	}

	private ApplicationContextRunner runner(Path certificate, Path key, TlsProvider provider) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withUserConfiguration(TlsPropertiesConfiguration.class)
			.withPropertyValues("spring.ssl.bundle.pem.web.keystore.certificate=file:" + certificate,
					"spring.ssl.bundle.pem.web.keystore.private-key=file:" + key,
					"spring.ssl.bundle.pem.web.reload-on-update=true", "spring.ssl.bundle.watch.file.quiet-period=200ms",
					"server.ssl.bundle=web", "khamsin.tls.provider=" + provider.name().toLowerCase(Locale.ROOT));
	}

	static Stream<Arguments> keyTypesOnEachProvider() {
		return Stream.of(TlsProvider.AUTO, TlsProvider.JDK)
			.flatMap((provider) -> Stream.of(KeyType.EC, KeyType.RSA, KeyType.ED25519)
				.map((type) -> Arguments.of(provider, type)));
	}

	@ParameterizedTest(name = "{1} on {0}")
	@MethodSource("keyTypesOnEachProvider")
	void aCertificateReplacedOnDiskIsServedToTheNextConnection(TlsProvider provider, KeyType type) throws Exception {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = this.certificates.server(type, "localhost");
		first.writePem(certificate, key);
		runner(certificate, key, provider).run((context) -> {
			Ssl ssl = Binder.get(context.getEnvironment()).bind("server.ssl", Ssl.class).get();
			SslBundles bundles = context.getBean(SslBundles.class);
			KhamsinTlsProperties properties = context.getBean(KhamsinTlsProperties.class);
			TlsConfig config = BootTlsConfig.from(ssl, WebServerSslBundle.get(ssl, bundles), java.util.Map.of(),
					properties);
			TlsContexts contexts = TlsContexts.build(config);
			SslBundleReloader.register(ssl, bundles, contexts);
			try (TlsTestServer server = TlsTestServer.start(contexts)) {
				assertThat(served(server)).isEqualTo(first.certificate());
				TestCertificates.Issued second = this.certificates.server(type, "localhost");
				Path staged = this.dir.resolve("staged");
				Files.createDirectories(staged);
				second.writePem(staged.resolve("server.crt"), staged.resolve("server.key"));
				Files.move(staged.resolve("server.key"), key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				Files.move(staged.resolve("server.crt"), certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(200))
					.untilAsserted(() -> assertThat(served(server)).isEqualTo(second.certificate()));
			}
		});
	}

	@Test
	void aKeyReplacedBeforeItsCertificateIsRefusedUntilTheCertificateFollows() throws Exception {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = this.certificates.server("localhost");
		first.writePem(certificate, key);
		runner(certificate, key, TlsProvider.AUTO).run((context) -> {
			Ssl ssl = Binder.get(context.getEnvironment()).bind("server.ssl", Ssl.class).get();
			SslBundles bundles = context.getBean(SslBundles.class);
			TlsConfig config = BootTlsConfig.from(ssl, WebServerSslBundle.get(ssl, bundles), java.util.Map.of(),
					context.getBean(KhamsinTlsProperties.class));
			TlsContexts contexts = TlsContexts.build(config);
			SslBundleReloader.register(ssl, bundles, contexts);
			AtomicInteger updates = new AtomicInteger();
			bundles.addBundleUpdateHandler("web", (bundle) -> updates.incrementAndGet());
			try (LogCapture log = LogCapture.of(SslBundleReloader.class);
					TlsTestServer server = TlsTestServer.start(contexts)) {
				TestCertificates.Issued second = this.certificates.server("localhost");
				Path staged = Files.createDirectories(this.dir.resolve("staged"));
				second.writePem(staged.resolve("server.crt"), staged.resolve("server.key"));
				// A renewal that moves the key in first, with the watcher's quiet period passing before the certificate.
				Files.move(staged.resolve("server.key"), key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30)).until(() -> updates.get() >= 1);
				assertThat(served(server)).isEqualTo(first.certificate());
				assertThat(log.messages(Level.ERROR)).singleElement()
					.satisfies((line) -> assertThat(line)
						.startsWith("khamsin keeps serving the previous certificate of SSL bundle 'web'")
						.contains("check that the private key belongs to the certificate"));
				Files.move(staged.resolve("server.crt"), certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(200))
					.untilAsserted(() -> assertThat(served(server)).isEqualTo(second.certificate()));
			}
		});
	}

	@Test
	void filesWrittenAgainWithTheSameContentKeepTheIdentityAndItsSessions() throws Exception {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = this.certificates.server("localhost");
		first.writePem(certificate, key);
		runner(certificate, key, TlsProvider.AUTO).run((context) -> {
			Ssl ssl = Binder.get(context.getEnvironment()).bind("server.ssl", Ssl.class).get();
			SslBundles bundles = context.getBean(SslBundles.class);
			TlsConfig config = BootTlsConfig.from(ssl, WebServerSslBundle.get(ssl, bundles), java.util.Map.of(),
					context.getBean(KhamsinTlsProperties.class));
			TlsContexts contexts = TlsContexts.build(config);
			SslBundleReloader.register(ssl, bundles, contexts);
			AtomicInteger updates = new AtomicInteger();
			bundles.addBundleUpdateHandler("web", (bundle) -> updates.incrementAndGet());
			SSLContext client = this.certificates.clientContext(null);
			try (LogCapture log = LogCapture.of(TlsContexts.class);
					TlsTestServer server = TlsTestServer.start(contexts)) {
				assertThat(request(client, server)).startsWith("HTTP/1.1 200");
				// As a deployment tool or a secret volume's refresh writes the files again, unchanged.
				first.writePem(certificate, key);
				await().atMost(Duration.ofSeconds(30)).until(() -> updates.get() >= 1);
				assertThat(request(client, server)).startsWith("HTTP/1.1 200");
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					assertThat(server.figures().totals().full()).isEqualTo(1);
					assertThat(server.figures().totals().resumed()).isEqualTo(1);
				});
				assertThat(log.messages(Level.INFO)).noneSatisfy((line) -> assertThat(line).contains("now serves"));
			}
		});
	}

	private static String request(SSLContext client, TlsTestServer server) throws IOException {
		try (TlsClient connection = TlsClient.connect(client, server.port(), "localhost", "TLSv1.3")) {
			return connection.get("/");
		}
	}

	@Test
	void anUpdateThatCannotServeIsLoggedAndThePreviousCertificateKeepsServing() throws Exception {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		TestCertificates.Issued first = this.certificates.server("localhost");
		first.writePem(certificate, key);
		TlsContexts contexts = TlsContexts.build(TlsConfig.builder(first.material("SSL bundle 'web'")).build());
		Logger logger = (Logger) LoggerFactory.getLogger(SslBundleReloader.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		try (TlsTestServer server = TlsTestServer.start(contexts)) {
			java.security.KeyStore empty = java.security.KeyStore.getInstance("PKCS12");
			empty.load(null, null);
			SslBundleReloader.update(null, "web", org.springframework.boot.ssl.SslBundle
				.of(org.springframework.boot.ssl.SslStoreBundle.of(empty, "", null)), contexts);
			assertThat(appender.list).singleElement()
				.satisfies((event) -> assertThat(event.getFormattedMessage())
					.startsWith("khamsin keeps serving the previous certificate of SSL bundle 'web'"));
			assertThat(served(server)).isEqualTo(first.certificate());
		}
		finally {
			logger.detachAppender(appender);
		}
	}

	private X509Certificate served(TlsTestServer server) throws IOException {
		try (TlsClient client = TlsClient.connect(this.certificates.clientContext(null), server.port(), "localhost",
				"TLSv1.3")) {
			return client.serverCertificate();
		}
	}

}
