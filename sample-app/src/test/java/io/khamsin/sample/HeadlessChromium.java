package io.khamsin.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.khamsin.container.test.CommandLine;

/**
 * Debian's {@code chromium}, headless, loading a page over QUIC as a browser does and printing the DOM it built.
 * Chromium trusts no test authority for QUIC, so the server's certificate is pinned by the hash of its public key.
 */
final class HeadlessChromium {

	private final Path dir;

	/**
	 * @param dir an empty directory for the browser's profile and its output
	 */
	HeadlessChromium(Path dir) {
		this.dir = dir;
	}

	/** Skip the calling test unless {@code chromium} is installed. */
	static void assumeInstalled() {
		CommandLine.assumeInstalled("chromium", "chromium");
	}

	/**
	 * Load a page with HTTP/3 forced on for its origin, and wait for the browser to print the page's DOM and exit.
	 * @param page the page
	 * @param certificate the server's certificate, trusted whoever issued it
	 * @param timeout how long the browser may take before it and its children are killed and the test fails
	 * @return the DOM, serialized
	 */
	String dumpDomOverHttp3(URI page, X509Certificate certificate, Duration timeout) {
		try {
			Path out = this.dir.resolve("dom.html");
			Path log = this.dir.resolve("chromium.log");
			List<String> command = List.of("chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
					"--no-first-run", "--disable-background-networking",
					"--user-data-dir=" + this.dir.resolve("profile"), "--enable-quic",
					"--origin-to-force-quic-on=" + page.getHost() + ":" + page.getPort(),
					"--ignore-certificate-errors-spki-list=" + spkiHash(certificate), "--dump-dom", page.toString());
			// Files, not pipes: the DOM apart from the browser's log, and no helper process left holding a pipe's
			// end can stall the read.
			Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
				.redirectError(log.toFile())
				.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
				throw new AssertionError(String.join(" ", command) + " did not end within " + timeout + ":\n"
						+ Files.readString(log, StandardCharsets.UTF_8));
			}
			String dom = Files.readString(out, StandardCharsets.UTF_8);
			// A page Chromium could not load (a certificate it refused, a QUIC handshake that failed) prints no
			// DOM and still exits 0.
			if (process.exitValue() != 0 || dom.isEmpty()) {
				throw new AssertionError(String.join(" ", command) + " -> " + process.exitValue() + "\n"
						+ Files.readString(log, StandardCharsets.UTF_8));
			}
			return dom;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The value of {@code --ignore-certificate-errors-spki-list} for a certificate.
	 * @param certificate the certificate
	 * @return the base64 SHA-256 of its SubjectPublicKeyInfo
	 */
	static String spkiHash(X509Certificate certificate) {
		try {
			byte[] spki = certificate.getPublicKey().getEncoded();
			return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(spki));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every JDK", ex);
		}
	}

}
