package io.khamsin.container.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions resumed with {@code openssl s_client -sess_out} and {@code -sess_in} on a server with two identities
 * chosen by SNI, as {@code server.ssl.bundle=a} with {@code server-name-bundles} {@code b.local -> b} sets it up: a
 * session resumes under the identity that issued it and under no other, so a client always sees the certificate of
 * the host it names, and a client certificate checked against one identity's trust is never taken by another.
 */
@Timeout(120)
class SessionResumptionTests {

	private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

	private static final String REQUEST = "GET /session HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

	@TempDir
	static Path dir;

	private static TestCertificates authorityA;

	private static TestCertificates authorityB;

	private static TestCertificates.Issued a;

	private static TestCertificates.Issued b;

	private static Path caPem;

	@BeforeAll
	static void issue() {
		authorityA = TestCertificates.create("authority of a");
		authorityB = TestCertificates.create("authority of b");
		a = authorityA.server("a.local");
		b = authorityA.server("b.local");
		caPem = authorityA.writeCaPem(dir.resolve("ca.pem"));
	}

	private static TlsConfig.Builder twoIdentities(TlsProvider provider) {
		return TlsConfig.builder(a.material("SSL bundle 'a'").withTrust(authorityA.trust()))
			.serverName("b.local", b.material("SSL bundle 'b' of server name b.local").withTrust(authorityB.trust()))
			.provider(provider);
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aSessionResumesUnderTheServerNameThatIssuedItAndUnderNoOther(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		try (TlsTestServer server = TlsTestServer.start(twoIdentities(provider).build())) {
			for (String protocol : List.of("-tls1_3", "-tls1_2")) {
				Path session = dir.resolve("session-" + provider + protocol);
				CommandLine.Result first = sClient(server, "a.local", protocol, "-sess_out", session.toString());
				assertThat(first.output()).as(first.toString()).contains("New, TLSv1.", "subject=CN = a.local");
				CommandLine.Result other = sClient(server, "b.local", protocol, "-sess_in", session.toString());
				assertThat(other.output()).as(other.toString()).contains("New, TLSv1.", "subject=CN = b.local")
					.doesNotContain("Reused, TLSv1.");
				assertThat(TlsKeyTypeTests.servedCertificate(other)).isEqualTo(b.certificate());
				CommandLine.Result same = sClient(server, "a.local", protocol, "-sess_in", session.toString());
				assertThat(same.output()).as(same.toString()).contains("Reused, TLSv1.");
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aClientCertificateTrustedByOneIdentityIsNotTakenByAnotherThroughItsSession(TlsProvider provider) {
		CommandLine.assumeInstalled("openssl", "openssl");
		TestCertificates.Issued alice = authorityA.client("alice");
		Path certificate = dir.resolve("alice.crt");
		Path key = dir.resolve("alice.key");
		alice.writePem(certificate, key);
		TlsConfig config = twoIdentities(provider).clientAuth(TlsClientAuth.NEED).build();
		try (TlsTestServer server = TlsTestServer.start(config)) {
			for (String protocol : List.of("-tls1_3", "-tls1_2")) {
				Path session = dir.resolve("client-session-" + provider + protocol);
				CommandLine.Result first = sClient(server, "a.local", protocol, "-cert", certificate.toString(), "-key",
						key.toString(), "-sess_out", session.toString());
				assertThat(first.output()).as(first.toString()).contains("New, TLSv1.", "peer=CN=alice");
				CommandLine.Result other = sClient(server, "b.local", protocol, "-sess_in", session.toString());
				assertThat(other.output()).as(other.toString()).doesNotContain("Reused, TLSv1.", "peer=CN=alice");
			}
		}
	}

	private static CommandLine.Result sClient(TlsTestServer server, String serverName, String... options) {
		List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + server.port(),
				"-servername", serverName, "-CAfile", caPem.toString(), "-ign_eof"));
		command.addAll(List.of(options));
		return CommandLine.run(REQUEST, TOOL_TIMEOUT, command);
	}

}
