package io.khamsin.container.tls;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's testssl.sh against a TLS listener on loopback, with no DNS look-ups, on BoringSSL and the JDK: only
 * TLS 1.2 and 1.3 offered, no CBC suites, client-initiated renegotiation refused, and no line that says VULNERABLE.
 * Resumption by ticket, which testssl's server defaults would show, is {@link TlsHandshakeTests}' and
 * {@link SessionResumptionTests}' (with openssl s_client), so the scan leaves those defaults out, which were about half
 * of its time; {@code --vulnerable} includes the renegotiation checks.
 * <p>
 * {@code -Dkhamsin.testssl.boringssl=skip} scans the JDK's provider alone: CI's second JDK sets it, since BoringSSL is
 * native and the same on every JDK, while the JDK's provider is the one a new JDK changes.
 */
@Timeout(600)
class TestsslScanTests {

	/** The findings a sound listener gets, as testssl words them. */
	private static final List<Pattern> EXPECTED = Stream
		.of("TLS 1\\s+not offered", "TLS 1\\.1\\s+not offered", "TLS 1\\.2\\s+offered \\(OK\\)",
				"TLS 1\\.3\\s+offered \\(OK\\)", "Obsolete CBC ciphers \\(AES, ARIA etc\\.\\)\\s+not offered",
				"Secure Client-Initiated Renegotiation\\s+not vulnerable \\(OK\\)", "ALPN/HTTP2\\s+http/1\\.1 \\(offered\\)")
		.map(Pattern::compile)
		.toList();

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void testsslFindsOnlyTls12And13AndNothingVulnerable(TlsProvider provider) {
		CommandLine.assumeInstalled("testssl", "testssl.sh");
		Assumptions.assumeFalse(
				provider == TlsProvider.OPENSSL && "skip".equals(System.getProperty("khamsin.testssl.boringssl")),
				"-Dkhamsin.testssl.boringssl=skip (CI's second JDK: BoringSSL is native, scanned once per CI run)");
		TlsConfig config = TlsConfig.builder(TestCertificates.create().server("localhost").material("localhost"))
			.provider(provider)
			.build();
		try (TlsTestServer server = TlsTestServer.start(config)) {
			CommandLine.Result scan = scan(server.port());
			// On a loaded machine testssl's own checks can come back without their finding: a connection that timed
			// out ("Connect problem"). A finding about the client, not the server: scan again, at most twice. A server
			// that lacks one of them lacks it in every scan, and a VULNERABLE line fails at once.
			for (int attempt = 1; attempt < 3 && inconclusive(scan.output()); attempt++) {
				System.out.println("testssl against " + provider + " did not show " + missing(scan.output())
						+ " (or had a connect problem): scanning again");
				scan = scan(server.port());
			}
			assertThat(scan.output()).as(scan.toString()).doesNotContain("VULNERABLE");
			assertThat(missing(scan.output())).as(scan.toString()).isEmpty();
		}
	}

	private static boolean inconclusive(String report) {
		return !report.contains("VULNERABLE") && (report.contains("Connect problem") || !missing(report).isEmpty());
	}

	private static List<String> missing(String report) {
		return EXPECTED.stream().filter((finding) -> !finding.matcher(report).find()).map(Pattern::pattern).toList();
	}

	private static CommandLine.Result scan(int port) {
		return CommandLine.run(null, Duration.ofMinutes(3), "testssl", "--quiet", "--color", "0", "--warnings", "off",
				"--nodns", "none", "--ip", "127.0.0.1", "--protocols", "--std", "--vulnerable", "localhost:" + port);
	}

}
