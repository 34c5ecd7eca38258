package io.khamsin.container.tls;

import java.io.IOException;
import java.time.Duration;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.TlsFigures;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A client's renegotiation of a TLS 1.2 session is refused on both providers: BoringSSL refuses it itself, the
 * JDK provider through the guard that follows the record layer, also when it serves one identity beside BoringSSL.
 */
@Timeout(60)
class RenegotiationTests {

	private static final TestCertificates certificates = TestCertificates.create();

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aClientThatRenegotiatesTls12IsRefused(TlsProvider provider) throws Exception {
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(provider)
			.build();
		try (TlsTestServer server = TlsTestServer.start(config);
				TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), "localhost",
						"TLSv1.2")) {
			assertThat(client.get("/before")).startsWith("HTTP/1.1 200");
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
				client.socket().startHandshake();
				client.get("/after");
			});
			if (provider == TlsProvider.JDK) {
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.RENEGOTIATION))
						.isEqualTo(1));
			}
		}
	}

	@Test
	void anIdentityTheJdkServesBesideBoringSslIsGuardedToo() throws Exception {
		TlsConfig config = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.serverName("ed448.test",
					certificates.server(TestCertificates.KeyType.ED448, "ed448.test").material("ed448"))
			.build();
		try (TlsTestServer server = TlsTestServer.start(config);
				TlsClient client = TlsClient.connect(certificates.clientContext(null), server.port(), "ed448.test",
						"TLSv1.2")) {
			assertThat(client.get("/before")).startsWith("HTTP/1.1 200");
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
				client.socket().startHandshake();
				client.get("/after");
			});
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.RENEGOTIATION))
					.isEqualTo(1));
		}
	}

	@Test
	void recordsSplitAnywhereAreFollowedAndOnlyAHandshakeRecordAfterTheHandshakeCloses() {
		TlsFigures figures = TlsFigures.create();
		EmbeddedChannel channel = new EmbeddedChannel();
		RenegotiationGuard guard = new RenegotiationGuard(figures.reactor(channel.eventLoop()));
		channel.pipeline().addLast(guard);
		// A ClientHello during the handshake passes, header and body split across reads.
		channel.writeInbound(bytes(22, 3, 3), bytes(0, 4, 1, 0), bytes(0, 0));
		guard.arm();
		// Application data whose body holds the bytes of a handshake header passes.
		channel.writeInbound(bytes(23, 3, 3, 0, 6, 22, 3, 3, 0, 1, 0), bytes(23));
		channel.writeInbound(bytes(3, 3, 0, 1, 9));
		assertThat(channel.isOpen()).isTrue();
		for (Object read = channel.readInbound(); read != null; read = channel.readInbound()) {
			((ByteBuf) read).release();
		}
		// A new ClientHello after the handshake, its header split in two.
		channel.writeInbound(bytes(22, 3));
		assertThat(channel.isOpen()).isTrue();
		channel.writeInbound(bytes(3, 0, 40));
		assertThat(channel.isOpen()).isFalse();
		assertThat((Object) channel.readInbound()).isNotNull().satisfies((read) -> ((ByteBuf) read).release());
		assertThat(figures.totals().failed(HandshakeFailure.RENEGOTIATION)).isEqualTo(1);
		channel.finishAndReleaseAll();
	}

	private static ByteBuf bytes(int... values) {
		byte[] bytes = new byte[values.length];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = (byte) values[i];
		}
		return Unpooled.wrappedBuffer(bytes);
	}

}
