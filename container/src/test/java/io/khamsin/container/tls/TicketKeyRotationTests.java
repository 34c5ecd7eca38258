package io.khamsin.container.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Session tickets under rotating keys on BoringSSL, with a clock the test moves: a ticket resumes under the key
 * that made it and under its successor, and no longer once that key has been rotated out.
 */
@Timeout(60)
class TicketKeyRotationTests {

	private static final Duration INTERVAL = Duration.ofHours(1);

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static Path caPem;

	private final AtomicLong now = new AtomicLong();

	@BeforeAll
	static void issue() {
		certificates = TestCertificates.create();
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
	}

	@Test
	void aTicketResumesForOneIntervalAfterItsKeyIsReplacedAndNotAfterThat() {
		CommandLine.assumeInstalled("openssl", "openssl");
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(TlsProvider.OPENSSL)
			.ticketKeyRotation(INTERVAL)
			.sessionTimeout(INTERVAL)
			.build();
		TlsContexts contexts = TlsContexts.build(config, this.now::get);
		try (TlsTestServer server = TlsTestServer.start(contexts)) {
			Path ticket = dir.resolve("ticket");
			assertThat(handshake(server, "-sess_out", ticket)).startsWith("New");
			assertThat(handshake(server, "-sess_in", ticket)).startsWith("Reused");
			this.now.addAndGet(INTERVAL.toNanos());
			assertThat(handshake(server, "-sess_in", ticket)).as("under the previous key").startsWith("Reused");
			assertThat(contexts.ticketKeyRotation().rotations()).isEqualTo(1);
			this.now.addAndGet(INTERVAL.toNanos());
			assertThat(handshake(server, "-sess_in", ticket)).as("its key rotated out").startsWith("New");
			assertThat(contexts.ticketKeyRotation().rotations()).isEqualTo(2);
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				assertThat(server.figures().totals().full()).isEqualTo(2);
				assertThat(server.figures().totals().resumed()).isEqualTo(2);
			});
		}
	}

	@Test
	void noRotationHappensBeforeAnIntervalHasPassed() {
		TicketKeyRotation keys = new TicketKeyRotation(INTERVAL, this.now::get);
		this.now.addAndGet(INTERVAL.toNanos() - 1);
		assertThat(keys.due()).isFalse();
		assertThat(keys.rotateIfDue()).isFalse();
		this.now.addAndGet(1);
		assertThat(keys.rotateIfDue()).isTrue();
		assertThat(keys.rotateIfDue()).isFalse();
		assertThat(keys.rotations()).isEqualTo(1);
	}

	private static String handshake(TlsTestServer server, String option, Path session) {
		CommandLine.Result result = CommandLine.run("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
				Duration.ofSeconds(30), "openssl", "s_client", "-connect", "127.0.0.1:" + server.port(), "-servername",
				"localhost", "-CAfile", caPem.toString(), "-ign_eof", "-tls1_3", option, session.toString());
		String outcome = result.find("((?:New|Reused), TLSv1\\.3)");
		assertThat(outcome).as(result.toString()).isNotNull();
		return outcome;
	}

}
