package io.khamsin.container.tls;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The self-signed development certificate: it serves a client that trusts it, names localhost and the loopback
 * addresses, and its log line gives the fingerprint openssl computes and says it is for development only.
 */
class DevelopmentCertificateTests {

	@TempDir
	Path dir;

	@Test
	void aClientThatTrustsTheCertificateIsServedAsLocalhost() throws Exception {
		DevelopmentCertificate certificate = DevelopmentCertificate.create();
		KeyStore trusted = KeyStore.getInstance("PKCS12");
		trusted.load(null, null);
		trusted.setCertificateEntry("development", certificate.certificate());
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(trusted);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		try (TlsTestServer server = TlsTestServer.start(TlsConfig.builder(certificate.material()).build())) {
			for (String host : List.of("localhost", "127.0.0.1")) {
				HttpResponse<String> response = HttpClient.newBuilder()
					.sslContext(context)
					.build()
					.send(HttpRequest.newBuilder(URI.create("https://" + host + ":" + server.port() + "/dev")).build(),
							HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).isEqualTo(200);
			}
		}
	}

	@Test
	void theLogLineGivesTheFingerprintOpensslComputesAndSaysDevelopmentOnly() {
		Logger logger = (Logger) LoggerFactory.getLogger(DevelopmentCertificate.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		DevelopmentCertificate certificate;
		try {
			certificate = DevelopmentCertificate.create();
		}
		finally {
			logger.detachAppender(appender);
		}
		assertThat(appender.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel().toString()).isEqualTo("WARN");
			assertThat(event.getFormattedMessage()).contains("self-signed", "for development only",
					"SHA-256 fingerprint " + certificate.fingerprint());
		});
		assertThat(certificate.fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
		if (TlsHandshakeTests.isInstalled("openssl")) {
			Path pem = this.dir.resolve("development.pem");
			io.khamsin.container.test.TestCertificates.writePem(pem, List.of(certificate.certificate()));
			CommandLine.Result openssl = CommandLine.run(null, Duration.ofSeconds(30), "openssl", "x509", "-in",
					pem.toString(), "-noout", "-fingerprint", "-sha256");
			assertThat(openssl.output().trim()).isEqualToIgnoringCase("sha256 Fingerprint=" + certificate.fingerprint());
		}
	}

}
