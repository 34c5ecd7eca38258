package io.khamsin.container.tls;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Session tickets under rotating keys on BoringSSL: a ticket resumes under the key that made it and under its
 * successor, and no longer once that key has been rotated out; the keys rotate on a timer, so an idle server drops a
 * key on time too, and the timer stops with the server. BoringSSL resumes a TLS 1.3 ticket for longer than the
 * session timeout, so only the rotation bounds its life.
 */
@Timeout(60)
class TicketKeyRotationTests {

	private static final HttpHandler OK = (request, response) -> response.setComplete();

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

	private static String handshake(int port, String option, Path session) {
		CommandLine.Result result = CommandLine.run("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
				Duration.ofSeconds(30), "openssl", "s_client", "-connect", "127.0.0.1:" + port, "-servername",
				"localhost", "-CAfile", caPem.toString(), "-ign_eof", "-tls1_3", option, session.toString());
		String outcome = result.find("((?:New|Reused), TLSv1\\.3)");
		assertThat(outcome).as(result.toString()).isNotNull();
		return outcome;
	}

}
