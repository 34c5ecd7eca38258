package io.khamsin.benchmark.target;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The certificate every TLS target serves in a run: a self-signed RSA 2048 certificate for localhost and
 * 127.0.0.1, made by {@code openssl req} into PEM files that Spring Boot ({@code server.ssl.certificate}) and nginx
 * ({@code ssl_certificate}) both read. RSA 2048 because it is still the most common server key, and because its
 * signature is what makes a full handshake cost the server more than the client: with it, the handshake rate
 * measures the server, not the generator.
 *
 * @param certificate the certificate, PEM
 * @param privateKey its private key, PEM (unencrypted, PKCS#8)
 */
public record TlsFiles(Path certificate, Path privateKey) {

	/**
	 * Make the certificate and key in {@code dir}.
	 * @throws IllegalStateException when openssl fails, with what it printed
	 */
	public static TlsFiles generate(Path dir) {
		Path certificate = dir.resolve("cert.pem");
		Path key = dir.resolve("key.pem");
		List<String> command = List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days",
				"7", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout",
				key.toString(), "-out", certificate.toString());
		try {
			Files.createDirectories(dir);
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("openssl could not make the benchmark's certificate: " + output);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run openssl (apt-get install openssl): " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		return new TlsFiles(certificate, key);
	}

}
