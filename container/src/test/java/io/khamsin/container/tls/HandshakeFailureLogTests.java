package io.khamsin.container.tls;

import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLHandshakeException;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.LogCapture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warning of handshake failures that are not the client's doing, under a clock the test moves: each distinct
 * cause once per interval, the next line saying how often it came in between, and nothing for what clients cause.
 */
class HandshakeFailureLogTests {

	private static final long MINUTE = 60_000_000_000L;

	private final AtomicLong now = new AtomicLong();

	private final HandshakeFailureLog log = new HandshakeFailureLog(
			(hostName) -> "api.test".equals(hostName) ? hostName : null, MINUTE, this.now::get);

	@Test
	void aCauseIsLoggedOncePerIntervalAndItsNextLineCountsTheRepeats() {
		SSLHandshakeException cause = new SSLHandshakeException("Unable to find key material");
		try (LogCapture capture = LogCapture.of(HandshakeFailureLog.class)) {
			assertThat(this.log.failed(HandshakeFailure.OTHER, "api.test", cause)).isTrue();
			this.now.addAndGet(MINUTE - 1);
			assertThat(this.log.failed(HandshakeFailure.OTHER, "api.test", cause)).isFalse();
			assertThat(this.log.failed(HandshakeFailure.OTHER, "api.test", cause)).isFalse();
			this.now.addAndGet(1);
			assertThat(this.log.failed(HandshakeFailure.OTHER, "api.test", cause)).isTrue();
			assertThat(capture.messages(Level.WARN)).hasSize(2)
				.allSatisfy((line) -> assertThat(line)
					.contains("server name api.test (other): Unable to find key material"));
			assertThat(capture.messages(Level.WARN).get(1)).endsWith("(2 more since the last line)");
		}
	}

	@Test
	void anotherCauseOrServerNameHasALineOfItsOwn() {
		try (LogCapture capture = LogCapture.of(HandshakeFailureLog.class)) {
			this.log.failed(HandshakeFailure.OTHER, "api.test", new SSLHandshakeException("one"));
			this.log.failed(HandshakeFailure.OTHER, "api.test", new SSLHandshakeException("two"));
			this.log.failed(HandshakeFailure.OTHER, null, new SSLHandshakeException("one"));
			assertThat(capture.messages(Level.WARN)).hasSize(3);
			assertThat(capture.messages(Level.WARN).get(2)).contains("the default host (other): one");
		}
	}

	@Test
	void aHostNameWithNoIdentityOfItsOwnIsLoggedAsTheDefaultHostNotAsTheClientWroteIt() {
		try (LogCapture capture = LogCapture.of(HandshakeFailureLog.class)) {
			for (String hostName : new String[] { "a.example", "b.example\nWARN forged line", null }) {
				this.log.failed(HandshakeFailure.OTHER, hostName, new SSLHandshakeException("one"));
			}
			assertThat(capture.messages(Level.WARN)).singleElement()
				.satisfies((line) -> assertThat(line).contains("the default host").doesNotContain("example"));
		}
	}

	@Test
	void failuresClientsCauseAreNotLogged() {
		try (LogCapture capture = LogCapture.of(HandshakeFailureLog.class)) {
			for (HandshakeFailure reason : HandshakeFailure.values()) {
				if (reason != HandshakeFailure.OTHER) {
					assertThat(this.log.failed(reason, "api.test", new SSLHandshakeException(reason.tag()))).isFalse();
				}
			}
			assertThat(capture.messages(Level.WARN)).isEmpty();
		}
	}

}
