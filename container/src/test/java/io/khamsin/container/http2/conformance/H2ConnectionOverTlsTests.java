package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.opaque;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client over TLS with ALPN {@code h2} (RFC 9113 section 3.2), against the reference on TLS: the path a target
 * served over TLS takes, run by the catalogue with {@code -Dkhamsin.h2.conformance.targets=netty-reference-tls}.
 */
class H2ConnectionOverTlsTests {

	private static NettyReferenceTarget target;

	private static Endpoint endpoint;

	@BeforeAll
	static void start() throws Exception {
		target = NettyReferenceTarget.h2();
		endpoint = target.start();
	}

	@AfterAll
	static void stop() {
		target.close();
	}

	@Test
	void aGetOverTlsIsAnsweredWithTheSchemeHttps() throws IOException {
		try (Peer peer = new Peer(target.name(), endpoint)) {
			H2Connection connection = peer.handshake();
			assertThat(connection.request("GET").scheme()).hasToString("https");
			connection.get(1);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}
	}

	@Test
	void aPostOverTlsIsEchoed() throws IOException {
		try (Peer peer = new Peer(target.name(), endpoint)) {
			H2Connection connection = peer.handshake();
			connection.post(1, ascii("over tls"));
			assertThat(connection.expect().response(1).body()).isEqualTo(ascii("over tls"));
		}
	}

	@Test
	void aConnectionErrorOverTlsIsSeen() throws IOException {
		try (Peer peer = new Peer(target.name(), endpoint)) {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0, 1, opaque("tls"));
			connection.expect().connectionError(PROTOCOL_ERROR);
		}
	}

}
