package io.khamsin.container.tls;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.test.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which updates hold what an identity serves already: the same files read again do; another certificate, key,
 * trust, protocol or suite does not.
 */
class UnchangedMaterialTests {

	private static final TestCertificates certificates = TestCertificates.create();

	@TempDir
	Path dir;

	@Test
	void theSameFilesReadAgainAreUnchanged() {
		Path certificate = this.dir.resolve("server.crt");
		Path key = this.dir.resolve("server.key");
		certificates.server("localhost").writePem(certificate, key);
		TlsMaterial served = TlsMaterial.fromPem(certificate, key).withTrust(certificates.trust());
		TlsMaterial again = TlsMaterial.fromPem(certificate, key).withTrust(certificates.trust());
		assertThat(UnchangedMaterial.test(served, again)).isTrue();
	}

	@Test
	void anotherCertificateKeyTrustProtocolOrSuiteIsAChange() {
		TestCertificates.Issued issued = certificates.server("localhost");
		TlsMaterial served = issued.material("web").withTrust(certificates.trust());
		assertThat(UnchangedMaterial.test(served, certificates.server("localhost").material("web")
			.withTrust(certificates.trust()))).as("another certificate").isFalse();
		TestCertificates.Issued stranger = certificates.server("localhost");
		assertThat(UnchangedMaterial.test(served, TlsMaterial.of(stranger.key(), issued.chain(), "web")
			.withTrust(certificates.trust()))).as("another key").isFalse();
		assertThat(UnchangedMaterial.test(served, issued.material("web").withTrust(TestCertificates.create().trust())))
			.as("another trust").isFalse();
		assertThat(UnchangedMaterial.test(served, issued.material("web").withTrust(null))).as("no trust").isFalse();
		assertThat(UnchangedMaterial.test(served, served.withOptions(List.of("TLSv1.3"), List.of())))
			.as("other protocols").isFalse();
		assertThat(UnchangedMaterial.test(served, served.withOptions(List.of(), List.of("TLS_AES_128_GCM_SHA256"))))
			.as("other suites").isFalse();
	}

}
