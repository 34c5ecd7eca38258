package io.khamsin.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

import io.khamsin.container.test.TestCertificates;

/**
 * A sample app of its own that serves TLS as a team would set it up in {@code application.yml}: a PEM bundle
 * {@code web} that reloads when its files change on disk, a bundle {@code api} for the SNI host name
 * {@code api.khamsin.test}, and {@code server.ssl.client-auth=want} with the test authority as the trust of client
 * certificates. The certificates are issued by a test authority made for the app; {@link #clientContext} trusts it.
 */
final class TlsSampleApp implements AutoCloseable {

	static final String API_HOST = "api.khamsin.test";

	private final TestCertificates certificates = TestCertificates.create();

	private final Path dir;

	private final Path certificate;

	private final Path key;

	private final Path caPem;

	private final TestCertificates.Issued web;

	private final TestCertificates.Issued api;

	private final ConfigurableApplicationContext context;

	private final int port;

	TlsSampleApp(Container container, String... arguments) {
		try {
			this.dir = Files.createTempDirectory("khamsin-tls-sample-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.certificate = this.dir.resolve("web.crt");
		this.key = this.dir.resolve("web.key");
		this.web = this.certificates.server("localhost", "127.0.0.1");
		this.web.writePem(this.certificate, this.key);
		this.api = this.certificates.server(API_HOST);
		this.api.writePem(this.dir.resolve("api.crt"), this.dir.resolve("api.key"));
		this.caPem = this.certificates.writeCaPem(this.dir.resolve("ca.crt"));
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--khamsin.enabled=" + container.khamsinEnabled(), "--khamsin.reactors=2",
				"--spring.main.banner-mode=off", "--sample.files.dir=" + this.dir,
				"--server.ssl.bundle=web", "--server.ssl.client-auth=want",
				"--server.ssl.server-name-bundles[0].server-name=" + API_HOST,
				"--server.ssl.server-name-bundles[0].bundle=api",
				"--spring.ssl.bundle.pem.web.keystore.certificate=file:" + this.certificate,
				"--spring.ssl.bundle.pem.web.keystore.private-key=file:" + this.key,
				"--spring.ssl.bundle.pem.web.truststore.certificate=file:" + this.caPem,
				"--spring.ssl.bundle.pem.web.reload-on-update=true",
				"--spring.ssl.bundle.watch.file.quiet-period=200ms",
				"--spring.ssl.bundle.pem.api.keystore.certificate=file:" + this.dir.resolve("api.crt"),
				"--spring.ssl.bundle.pem.api.keystore.private-key=file:" + this.dir.resolve("api.key"),
				"--spring.ssl.bundle.pem.api.truststore.certificate=file:" + this.caPem));
		args.addAll(List.of(arguments));
		this.context = new SpringApplicationBuilder(SampleApplication.class, TestRoutes.class,
				ObservedSampleApp.OwnReactorResources.class)
			.run(args.toArray(new String[0]));
		WebServer webServer = ((WebServerApplicationContext) this.context).getWebServer();
		if (!container.runs(webServer.getClass())) {
			this.context.close();
			throw new IllegalStateException("Expected the sample app to run on " + container + " but "
					+ webServer.getClass().getName() + " serves it");
		}
		this.port = webServer.getPort();
	}

	/**
	 * The app with HTTP/3 turned on as a team would: {@code khamsin.http3.enabled=true} next to HTTP/2 and
	 * HTTP/1.1, on the same port number.
	 * @return the running app
	 */
	static TlsSampleApp withHttp3() {
		return new TlsSampleApp(Container.KHAMSIN, "--khamsin.http3.enabled=true", "--server.http2.enabled=true");
	}

	int port() {
		return this.port;
	}

	/** @return the directory the app serves under {@code /files/**} */
	Path filesDir() {
		return this.dir;
	}

	URI uri(String pathAndQuery) {
		return URI.create("https://localhost:" + this.port + pathAndQuery);
	}

	URI webSocketUri(String path) {
		return URI.create("wss://localhost:" + this.port + path);
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	/** @return the authority that issued the app's certificates, and that it trusts for client certificates */
	TestCertificates certificates() {
		return this.certificates;
	}

	/** @return the authority's certificate as a PEM file, for curl's and openssl's {@code --cacert}/{@code -CAfile} */
	Path caPem() {
		return this.caPem;
	}

	/** @return the certificate the app served at start for {@code localhost} */
	TestCertificates.Issued web() {
		return this.web;
	}

	/** @return the certificate of {@link #API_HOST} */
	TestCertificates.Issued api() {
		return this.api;
	}

	/**
	 * A client's context that trusts the app's authority.
	 * @param client the client's certificate, or {@code null} for none
	 * @return the context
	 */
	SSLContext clientContext(TestCertificates.Issued client) {
		return this.certificates.clientContext(client);
	}

	/**
	 * Replace the {@code web} bundle's PEM files on disk with a new certificate, each file moved into place whole,
	 * as a certificate manager renews them.
	 * @return the new certificate
	 */
	TestCertificates.Issued renewWebCertificate() {
		TestCertificates.Issued renewed = this.certificates.server("localhost", "127.0.0.1");
		try {
			Path staged = Files.createTempDirectory(this.dir, "staged-");
			renewed.writePem(staged.resolve("web.crt"), staged.resolve("web.key"));
			Files.move(staged.resolve("web.key"), this.key, StandardCopyOption.REPLACE_EXISTING);
			Files.move(staged.resolve("web.crt"), this.certificate, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return renewed;
	}

	@Override
	public void close() {
		this.context.close();
		FileSystemUtils.deleteRecursively(this.dir.toFile());
	}

}
