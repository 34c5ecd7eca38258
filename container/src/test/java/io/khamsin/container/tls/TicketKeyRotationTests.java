package io.khamsin.container.tls;

import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Session tickets under rotating keys on BoringSSL: a ticket resumes under the key that made it and under its
 * successor, and no longer once that key has been rotated out; the keys rotate on a timer, so an idle server drops a
 * key on time too, and the timer stops with the server. BoringSSL resumes a TLS 1.3 ticket for longer than the
 * session timeout, so only the rotation bounds its life. QUIC's tickets follow the same keys.
 */
@Timeout(60)
class TicketKeyRotationTests {

	private static final HttpHandler OK = (request, response) -> response.setComplete();

	/** A CRYPTO frame of the Handshake packet space in ngtcp2's frame log: its offset and length. */
	private static final Pattern QUIC_HANDSHAKE_CRYPTO = Pattern
		.compile("frm rx \\d+ Handshake CRYPTO\\(0x06\\) offset=(\\d+) len=(\\d+)");

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static Path caPem;

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	private static TlsConfig config(Duration interval) {
		return TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(TlsProvider.OPENSSL)
			.ticketKeyRotation(interval)
			.sessionTimeout(interval)
			.build();
	}

	@Test
	void aTicketResumesForOneIntervalAfterItsKeyIsReplacedAndNotAfterThat() {
		CommandLine.assumeInstalled("openssl", "openssl");
		TlsContexts contexts = TlsContexts.build(config(Duration.ofHours(1)));
		try (TlsTestServer server = TlsTestServer.start(contexts)) {
			Path ticket = dir.resolve("ticket");
			assertThat(handshake(server.port(), "-sess_out", ticket)).startsWith("New");
			assertThat(handshake(server.port(), "-sess_in", ticket)).startsWith("Reused");
			contexts.rotateTicketKeys();
			assertThat(handshake(server.port(), "-sess_in", ticket)).as("under the previous key").startsWith("Reused");
			contexts.rotateTicketKeys();
			assertThat(handshake(server.port(), "-sess_in", ticket)).as("its key rotated out").startsWith("New");
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				assertThat(server.figures().totals().full()).isEqualTo(2);
				assertThat(server.figures().totals().resumed()).isEqualTo(2);
			});
		}
	}

	@Test
	void anIdleServerRotatesItsKeysOnTimeSoThatAnOldTicketNoLongerResumesAndStopsRotatingWhenItStops() {
		CommandLine.assumeInstalled("openssl", "openssl");
		Duration interval = Duration.ofSeconds(1);
		KhamsinServer server = KhamsinServer
			.create(KhamsinServerConfig.builder().reactors(1).tls(config(interval)).build(), OK);
		server.start();
		TlsContexts contexts = server.tls();
		try {
			Path old = dir.resolve("old-ticket");
			assertThat(handshake(server.port(), "-sess_out", old)).startsWith("New");
			long issuedAfter = contexts.ticketKeyRotation().rotations();
			// No connection arrives while the keys rotate twice.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> contexts.ticketKeyRotation().rotations() >= issuedAfter + 2);
			assertThat(handshake(server.port(), "-sess_in", old)).as("its key rotated out while idle").startsWith("New");
			Path fresh = dir.resolve("fresh-ticket");
			assertThat(handshake(server.port(), "-sess_out", fresh)).startsWith("New");
			assertThat(handshake(server.port(), "-sess_in", fresh)).startsWith("Reused");
		}
		finally {
			server.stop();
		}
		long atStop = contexts.ticketKeyRotation().rotations();
		await().during(interval.multipliedBy(2)).atMost(interval.multipliedBy(4))
			.until(() -> contexts.ticketKeyRotation().rotations() == atStop);
	}

	@Test
	void aQuicTicketResumesForOneIntervalAfterItsKeyIsReplacedAndNotAfterThat() {
		CommandLine.assumeInstalled("gtlsclient", "ngtcp2-client");
		TestCertificates.Issued localhost = certificates.server("localhost");
		KhamsinServer server = startHttp3(localhost);
		try {
			assertQuicTicketLivesOneRotation(server, localhost, dir.resolve("quic-ticket"));
		}
		finally {
			server.stop();
		}
	}

	@Test
	void theQuicContextOfAReloadedCertificateRotatesItsTicketKeysToo() {
		CommandLine.assumeInstalled("gtlsclient", "ngtcp2-client");
		KhamsinServer server = startHttp3(certificates.server("localhost"));
		try {
			TestCertificates.Issued renewed = certificates.server("localhost");
			server.tls().update(null, renewed.material("renewed"));
			assertQuicTicketLivesOneRotation(server, renewed, dir.resolve("quic-ticket-renewed"));
		}
		finally {
			server.stop();
		}
	}

	private static KhamsinServer startHttp3(TestCertificates.Issued identity) {
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(identity.material("localhost"))
				.provider(TlsProvider.OPENSSL)
				.ticketKeyRotation(Duration.ofHours(1))
				.sessionTimeout(Duration.ofHours(1))
				.build())
			.http3(Http3Config.builder().enabled(true).build())
			.build(), OK);
		server.start();
		return server;
	}

	private static void assertQuicTicketLivesOneRotation(KhamsinServer server, TestCertificates.Issued served,
			Path ticket) {
		TlsContexts contexts = server.tls();
		// A resumed handshake sends no certificate: its flight is shorter than the certificate alone.
		int certificate;
		try {
			certificate = served.certificate().getEncoded().length;
		}
		catch (CertificateEncodingException ex) {
			throw new IllegalStateException(ex);
		}
		long resumed = server.metrics().tls().totals().resumed();
		assertThat(quicHandshakeBytes(server.port(), ticket)).as("a full handshake").isGreaterThan(certificate);
		contexts.rotateTicketKeys();
		assertThat(quicHandshakeBytes(server.port(), ticket)).as("under the previous key").isLessThan(certificate);
		// The TLS figures count it as resumed, as a resumed TCP handshake.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(server.metrics().tls().totals().resumed()).isEqualTo(resumed + 1));
		contexts.rotateTicketKeys();
		contexts.rotateTicketKeys();
		assertThat(quicHandshakeBytes(server.port(), ticket)).as("its key rotated out").isGreaterThan(certificate);
		assertThat(server.metrics().tls().totals().resumed()).isEqualTo(resumed + 1);
	}

	/**
	 * Fetch over HTTP/3 with ngtcp2's client, offering the ticket saved by the last fetch and saving the new one.
	 * @return the bytes of the server's handshake flight (after its ServerHello), read from the client's frame log
	 */
	private static int quicHandshakeBytes(int port, Path ticket) {
		CommandLine.Result result = CommandLine.run(null, Duration.ofSeconds(30), "gtlsclient", "--no-http-dump",
				"--exit-on-all-streams-close", "--disable-early-data", "--sni=localhost", "--session-file=" + ticket,
				"--tp-file=" + ticket + ".tp", "127.0.0.1", Integer.toString(port), "https://localhost:" + port + "/");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		Matcher frames = QUIC_HANDSHAKE_CRYPTO.matcher(result.output());
		int end = 0;
		while (frames.find()) {
			end = Math.max(end, Integer.parseInt(frames.group(1)) + Integer.parseInt(frames.group(2)));
		}
		assertThat(end).as("Handshake CRYPTO frames received").isPositive();
		return end;
	}

	private static String handshake(int port, String option, Path session) {
		CommandLine.Result result = CommandLine.run("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
				Duration.ofSeconds(30), "openssl", "s_client", "-connect", "127.0.0.1:" + port, "-servername",
				"localhost", "-CAfile", caPem.toString(), "-ign_eof", "-tls1_3", option, session.toString());
		String outcome = result.find("((?:New|Reused), TLSv1\\.3)");
		assertThat(outcome).as(result.toString()).isNotNull();
		return outcome;
	}

}
