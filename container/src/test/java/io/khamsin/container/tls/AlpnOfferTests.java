package io.khamsin.container.tls;

import java.nio.ByteBuffer;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ALPN extension read from ClientHellos that the JDK's client makes: refused only when it offers protocols and
 * none is served; no extension, a protocol in common, or a message cut short is left to the TLS stack.
 */
class AlpnOfferTests {

	private final AlpnOffer offer = new AlpnOffer(List.of("h2", "http/1.1"));

	@Test
	void aHelloThatOffersOnlyUnservedProtocolsIsRefusedAndSaysWhatItOffered() throws Exception {
		ByteBuf hello = clientHello("foo", "spdy/3");
		assertThat(this.offer.noneServed(hello)).isTrue();
		assertThat(AlpnOffer.offered(hello)).isEqualTo("foo,spdy/3");
	}

	@Test
	void aHelloWithOneServedProtocolAmongOthersIsNotRefused() throws Exception {
		assertThat(this.offer.noneServed(clientHello("foo", "http/1.1"))).isFalse();
		assertThat(this.offer.noneServed(clientHello("h2"))).isFalse();
	}

	@Test
	void aHelloWithoutAlpnIsNotRefused() throws Exception {
		assertThat(this.offer.noneServed(clientHello())).isFalse();
	}

	@Test
	void aHelloCutShortIsLeftToTheTlsStack() throws Exception {
		ByteBuf hello = clientHello("foo");
		for (int length = 0; length < hello.readableBytes(); length += 7) {
			assertThat(this.offer.noneServed(hello.slice(0, length))).as("the first %d bytes", length).isFalse();
		}
	}

	@Test
	void theAlertIsAFatalNoApplicationProtocolRecord() {
		ByteBuf alert = AlpnOffer.alert();
		assertThat(new byte[] { alert.getByte(0), alert.getByte(5), alert.getByte(6) })
			.containsExactly(21, 2, 120);
		assertThat(alert.getUnsignedShort(3)).isEqualTo(2);
	}

	/** The body of the ClientHello a JDK client sends, from its version on. */
	private static ByteBuf clientHello(String... protocols) throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, null, null);
		SSLEngine engine = context.createSSLEngine("localhost", 443);
		engine.setUseClientMode(true);
		SSLParameters parameters = engine.getSSLParameters();
		parameters.setApplicationProtocols(protocols);
		engine.setSSLParameters(parameters);
		ByteBuffer record = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
		engine.wrap(ByteBuffer.allocate(0), record);
		record.flip();
		// The record header (5 bytes) and the handshake header (4 bytes).
		return Unpooled.wrappedBuffer(record).skipBytes(9).slice();
	}

}
