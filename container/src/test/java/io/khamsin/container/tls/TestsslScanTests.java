package io.khamsin.container.tls;

import java.time.Duration;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's testssl.sh against a TLS listener on loopback, with no DNS look-ups, on BoringSSL and the JDK: only
 * TLS 1.2 and 1.3 offered, no CBC suites, tickets and ids for resumption, client-initiated renegotiation refused,
 * and no line that says VULNERABLE.
 */
@Timeout(600)
class TestsslScanTests {

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void testsslFindsOnlyTls12And13AndNothingVulnerable(TlsProvider provider) {
		CommandLine.assumeInstalled("testssl", "testssl.sh");
		TlsConfig config = TlsConfig.builder(TestCertificates.create().server("localhost").material("localhost"))
			.provider(provider)
			.build();
		try (TlsTestServer server = TlsTestServer.start(config)) {
			CommandLine.Result scan = scan(server.port());
			// On a loaded machine testssl's own connections can time out ("Connect problem", a finding about the
			// client, not the server): scan again, at most twice.
			for (int attempt = 1; attempt < 3 && scan.output().contains("Connect problem"); attempt++) {
				scan = scan(server.port());
			}
			assertThat(scan.output()).as(scan.toString())
				.doesNotContain("VULNERABLE")
				.containsPattern("TLS 1\\s+not offered")
				.containsPattern("TLS 1\\.1\\s+not offered")
				.containsPattern("TLS 1\\.2\\s+offered \\(OK\\)")
				.containsPattern("TLS 1\\.3\\s+offered \\(OK\\)")
				.containsPattern("Obsolete CBC ciphers \\(AES, ARIA etc\\.\\)\\s+not offered")
				.containsPattern("Secure Client-Initiated Renegotiation\\s+not vulnerable \\(OK\\)")
				.containsPattern("Session Resumption\\s+Tickets: yes")
				.containsPattern("ALPN/HTTP2\\s+http/1\\.1 \\(offered\\)");
		}
	}

	private static CommandLine.Result scan(int port) {
		return CommandLine.run(null, Duration.ofMinutes(3), "testssl", "--quiet", "--color", "0", "--warnings", "off",
				"--nodns", "none", "--ip", "127.0.0.1", "--protocols", "--renegotiation", "--std", "--server-defaults",
				"--vulnerable", "localhost:" + port);
	}

}
