package io.khamsin.container.tls;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.TlsFigures;
import io.khamsin.container.test.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first byte of a connection to a TLS port, on an embedded channel: a handshake record sets up the SNI stage
 * and the recorder, cleartext HTTP gets a 400 that names the https URL, other bytes a closed connection.
 */
class TlsDetectorTests {

	private static final TlsContexts contexts = TlsContexts.build(TlsConfig
		.builder(TestCertificates.create().server("localhost").material("localhost"))
		.handshakeTimeout(Duration.ofSeconds(30))
		.build());

	private final TlsFigures figures = TlsFigures.create();

	private EmbeddedChannel channel() {
		EmbeddedChannel channel = new EmbeddedChannel();
		channel.pipeline().addLast(TlsHandlers.DETECTOR, new TlsHandlers(contexts, this.figures).newHandler(channel));
		return channel;
	}

	@Test
	void plainHttpIsAnswered400WithTheHttpsUrlAndClosed() {
		EmbeddedChannel channel = channel();
		channel.writeInbound(ascii("GET /orders?id=7 HTTP/1.1\r\nAccept: */*\r\nHOST: shop.example:8443\r\n\r\n"));
		ByteBuf response = channel.readOutbound();
		String text = response.toString(StandardCharsets.US_ASCII);
		response.release();
		assertThat(text).startsWith("HTTP/1.1 400 Bad Request\r\n")
			.contains("connection: close\r\n")
			.endsWith("\r\n\r\nThis port speaks HTTPS only: send the request to https://shop.example:8443/ instead of http://.\n");
		assertThat(channel.isOpen()).isFalse();
		assertThat(this.figures.totals().failed(HandshakeFailure.CLEARTEXT)).isEqualTo(1);
		assertThat(this.figures.totals().failedTotal()).isEqualTo(1);
		channel.finishAndReleaseAll();
	}

	@Test
	void aHostHeaderWithOtherCharactersIsNotEchoed() {
		EmbeddedChannel channel = channel();
		channel.writeInbound(ascii("GET / HTTP/1.1\r\nHost: <script>\r\n\r\n"));
		ByteBuf response = channel.readOutbound();
		assertThat(response.toString(StandardCharsets.US_ASCII)).contains("https://this-host/").doesNotContain("<script>");
		response.release();
		channel.finishAndReleaseAll();
	}

	@Test
	void bytesThatStartNoTlsRecordCloseTheConnection() {
		EmbeddedChannel channel = channel();
		channel.writeInbound(Unpooled.wrappedBuffer(new byte[] { (byte) 0x80, 0x2e, 0x01 }));
		assertThat((Object) channel.readOutbound()).isNull();
		assertThat(channel.isOpen()).isFalse();
		assertThat(this.figures.totals().failed(HandshakeFailure.MALFORMED)).isEqualTo(1);
		channel.finishAndReleaseAll();
	}

	@Test
	void aHandshakeRecordSetsUpTheSniStageAndTheRecorder() {
		EmbeddedChannel channel = channel();
		// The start of a ClientHello record; the rest has not arrived yet.
		channel.writeInbound(Unpooled.wrappedBuffer(new byte[] { 22, 3, 1, 0, (byte) 200, 1 }));
		assertThat(channel.pipeline().names()).containsSubsequence(TlsHandlers.SNI, TlsHandlers.HANDSHAKE)
			.doesNotContain(TlsHandlers.DETECTOR);
		assertThat(channel.isOpen()).isTrue();
		channel.close();
		assertThat(this.figures.totals().failed(HandshakeFailure.CLOSED)).isEqualTo(1);
		channel.finishAndReleaseAll();
	}

	@Test
	void aConnectionClosedBeforeItsFirstByteIsCountedOnceApartFromTheHandshakes() {
		EmbeddedChannel channel = channel();
		channel.close();
		assertThat(this.figures.totals().closedBeforeHello()).isEqualTo(1);
		assertThat(this.figures.totals().failedTotal()).isZero();
		channel.finishAndReleaseAll();
	}

	private static ByteBuf ascii(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
	}

}
