package io.khamsin.sample;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebSocket echo (RFC 6455) through the JDK's WebSocket client: text and binary messages come back as sent,
 * a close handshake answers the client's status code, and the handshake carries what a web filter added.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketEchoTests {

	private final HttpClient client = HttpClients.http1();

	@ParameterizedTest
	@EnumSource
	void textAndBinaryMessagesAreEchoedAndTheCloseCodeIsAnswered(Container container) throws Exception {
		Recorder recorder = new Recorder();
		WebSocket webSocket = this.client.newWebSocketBuilder()
			.buildAsync(container.server().webSocketUri("/ws/echo"), recorder)
			.get(10, TimeUnit.SECONDS);

		webSocket.sendText("hello khamsin ☀", true).get(10, TimeUnit.SECONDS);
		assertThat(recorder.next()).isEqualTo("text:hello khamsin ☀");

		// Under the 64 KiB frame limit of Reactor Netty by default.
		String longText = "0123456789".repeat(6_000);
		webSocket.sendText(longText, true).get(10, TimeUnit.SECONDS);
		assertThat(recorder.next().equals("text:" + longText)).as("the 60,000 characters came back as sent").isTrue();

		byte[] bytes = new byte[4096];
		new Random(3).nextBytes(bytes);
		webSocket.sendBinary(ByteBuffer.wrap(bytes), true).get(10, TimeUnit.SECONDS);
		assertThat(recorder.next()).isEqualTo("binary:" + HexFormat.of().formatHex(bytes));

		// An application's own code (RFC 6455 section 7.4.2), which the server's close frame echoes back.
		webSocket.sendClose(4000, "done").get(10, TimeUnit.SECONDS);
		assertThat(recorder.next()).isEqualTo("close:4000");
		assertThat(webSocket.isInputClosed()).isTrue();
	}

	@ParameterizedTest
	@EnumSource
	void theHandshakeCarriesTheCookiesAndHeadersAWebFilterAdds(Container container) throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			RawHttpConnection.Response handshake = connection.send("GET /ws/echo HTTP/1.1\r\nHost: localhost\r\n"
					+ "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
					+ "Sec-WebSocket-Version: 13\r\nX-Probe: ws\r\n\r\n")
				.readHead();
			assertThat(handshake.status()).isEqualTo(101);
			assertThat(handshake.header("Sec-WebSocket-Accept")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
			assertThat(handshake.header("Set-Cookie")).startsWith("probe=ws").containsIgnoringCase("HttpOnly");
			assertThat(handshake.header("X-Probe-Filter")).isEqualTo("ws");
			assertThat(handshake.header("X-Probe-Commit")).isEqualTo("ws");
		}
	}

	/**
	 * Records each whole message, and the close, as one line.
	 */
	private static final class Recorder implements WebSocket.Listener {

		private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

		private final StringBuilder text = new StringBuilder();

		private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

		String next() throws InterruptedException {
			String next = this.received.poll(10, TimeUnit.SECONDS);
			assertThat(next).as("a message within 10 s").isNotNull();
			return next;
		}

		@Override
		public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
			this.text.append(data);
			if (last) {
				this.received.add("text:" + this.text);
				this.text.setLength(0);
			}
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
			byte[] bytes = new byte[data.remaining()];
			data.get(bytes);
			this.binary.writeBytes(bytes);
			if (last) {
				this.received.add("binary:" + HexFormat.of().formatHex(this.binary.toByteArray()));
				this.binary.reset();
			}
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
			this.received.add("close:" + statusCode);
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public void onError(WebSocket webSocket, Throwable error) {
			this.received.add("error:" + error);
		}

	}

}
