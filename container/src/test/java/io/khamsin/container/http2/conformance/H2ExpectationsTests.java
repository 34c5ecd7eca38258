package io.khamsin.container.http2.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.khamsin.container.http2.conformance.ErrorCode.CANCEL;
import static io.khamsin.container.http2.conformance.ErrorCode.FRAME_SIZE_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.H2Connection.encodeFrame;
import static io.khamsin.container.http2.conformance.H2Connection.int32;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.opaque;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The client's verdicts against a scripted server that sends exactly the bytes a test gives it, so that each
 * expectation is seen to pass and to fail where h2spec's would.
 */
class H2ExpectationsTests {

	/** Long enough for frames sent on loopback to arrive; used only where nothing is meant to come. */
	private static final Duration SILENCE = Duration.ofMillis(500);

	private ServerSocket listener;

	private Socket server;

	private OutputStream toClient;

	private final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();

	private H2Connection client;

	@BeforeEach
	void connect() throws Exception {
		this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
			try {
				return this.listener.accept();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
		this.client = H2Connection.open(Endpoint.h2c("127.0.0.1", this.listener.getLocalPort()), Peer.TIMEOUT, 0);
		this.server = accepted.get(10, TimeUnit.SECONDS);
		this.toClient = this.server.getOutputStream();
		Thread drain = new Thread(this::drain, "scripted-peer-reader");
		drain.setDaemon(true);
		drain.start();
	}

	@AfterEach
	void close() throws IOException {
		this.client.close();
		this.server.close();
		this.listener.close();
	}

	@Test
	void aConnectionErrorPassesOnACloseWithoutGoaway() throws IOException {
		this.server.close();
		this.client.expect().connectionError(PROTOCOL_ERROR);
	}

	@Test
	void aConnectionErrorPassesOnGoawayWithAnExpectedCodePastOtherFrames() throws IOException {
		serverSends(settings(), encodeFrame(Frame.WINDOW_UPDATE, 0, 0, int32(1)), goAway(FRAME_SIZE_ERROR));
		this.client.expect().connectionError(PROTOCOL_ERROR, FRAME_SIZE_ERROR);
	}

	@Test
	void aConnectionErrorFailsOnGoawayWithAnotherCode() throws IOException {
		serverSends(goAway(ErrorCode.INTERNAL_ERROR));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expect().connectionError(PROTOCOL_ERROR))
			.withMessageContaining("GOAWAY")
			.withMessageContaining("INTERNAL_ERROR");
	}

	@Test
	void aConnectionErrorFailsWhenTheServerSaysNothing() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expectWithin(SILENCE).connectionError(PROTOCOL_ERROR))
			.withMessageContaining("nothing within");
	}

	@Test
	void aStreamErrorPassesOnAResetOfItsStreamAndPassesOverResetsOfOthers() throws IOException {
		serverSends(rst(3, CANCEL), rst(1, PROTOCOL_ERROR));
		this.client.expect().streamError(1, PROTOCOL_ERROR);
	}

	@Test
	void aStreamErrorFailsOnAResetOfItsStreamWithAnotherCode() throws IOException {
		serverSends(rst(1, CANCEL));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expect().streamError(1, PROTOCOL_ERROR))
			.withMessageContaining("CANCEL");
	}

	@Test
	void aStreamErrorPassesOnAConnectionErrorWithAnExpectedCode() throws IOException {
		serverSends(goAway(PROTOCOL_ERROR));
		this.client.expect().streamError(1, PROTOCOL_ERROR);
	}

	@Test
	void aStrictResetFailsOnAConnectionClose() throws IOException {
		this.server.close();
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expect().rstStream(1, PROTOCOL_ERROR))
			.withMessageContaining("connection closed");
	}

	@Test
	void aPingAcknowledgementPassesOverSettingsAndWindowUpdates() throws IOException {
		serverSends(settings(), encodeFrame(Frame.WINDOW_UPDATE, 0, 0, int32(10)),
				encodeFrame(Frame.PING, Frame.FLAG_ACK, 0, opaque("h2spec")));
		this.client.expect().pingAck(opaque("h2spec"));
	}

	@Test
	void aPingAcknowledgementWithOtherDataFails() throws IOException {
		serverSends(encodeFrame(Frame.PING, Frame.FLAG_ACK, 0, opaque("invalid")));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expect().pingAck(opaque("h2spec")));
	}

	@Test
	void aPingAcknowledgementOrConnectionEndPassesOnAGoawayWithAnError() throws IOException {
		serverSends(settings(), goAway(ErrorCode.ENHANCE_YOUR_CALM));
		this.client.expect().pingAckOrConnectionEnd(opaque("after"));
	}

	@Test
	void aPingAcknowledgementOrConnectionEndFailsWhenTheServerSaysNothing() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.client.expectWithin(SILENCE).pingAckOrConnectionEnd(opaque("after")))
			.withMessageContaining("nothing within");
	}

	@Test
	void aResponseIsReadUpToEndOfStreamWithItsHeadDecoded() throws IOException {
		byte[] head = new HpackCodec().encode(new DefaultHttp2Headers().status("200").add("x-test", "ok"));
		serverSends(encodeFrame(Frame.HEADERS, Frame.FLAG_END_HEADERS, 1, head),
				encodeFrame(Frame.DATA, 0, 3, ascii("other stream")), encodeFrame(Frame.DATA, 0, 1, ascii("te")),
				encodeFrame(Frame.DATA, Frame.FLAG_END_STREAM | Frame.FLAG_PADDED, 1,
						new byte[] { 2, 's', 't', 0, 0 }));
		H2Expectations.Response response = this.client.expect().response(1);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("x-test")).hasToString("ok");
		assertThat(response.body()).isEqualTo(ascii("test"));
	}

	@Test
	void aResponseFailsOnAResetOfItsStream() throws IOException {
		serverSends(rst(1, CANCEL));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.client.expect().response(1))
			.withMessageContaining("RST_STREAM");
	}

	@Test
	void aFrameIsWrittenWithTheLengthAndStreamFieldsTheCaseGives() throws Exception {
		this.client.frame(99, Frame.PING, 0x16, 0x80000001, new byte[2]);
		byte[] expected = { 0, 0, 99, 0x06, 0x16, (byte) 0x80, 0, 0, 1, 0, 0 };
		long deadline = System.nanoTime() + Peer.TIMEOUT.toNanos();
		while (receivedCount() < expected.length && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		synchronized (this.fromClient) {
			assertThat(this.fromClient.toByteArray()).isEqualTo(expected);
		}
	}

	private int receivedCount() {
		synchronized (this.fromClient) {
			return this.fromClient.size();
		}
	}

	private void serverSends(byte[]... frames) throws IOException {
		for (byte[] frame : frames) {
			this.toClient.write(frame);
		}
		this.toClient.flush();
	}

	private void drain() {
		try {
			InputStream in = this.server.getInputStream();
			byte[] buffer = new byte[4096];
			int read;
			while ((read = in.read(buffer)) != -1) {
				synchronized (this.fromClient) {
					this.fromClient.write(buffer, 0, read);
				}
			}
		}
		catch (IOException ex) {
			// the test closed the socket
		}
	}

	private static byte[] settings() {
		return encodeFrame(Frame.SETTINGS, 0, 0, new byte[0]);
	}

	private static byte[] goAway(ErrorCode code) {
		byte[] payload = new byte[8];
		System.arraycopy(int32(code.code()), 0, payload, 4, 4);
		return encodeFrame(Frame.GOAWAY, 0, 0, payload);
	}

	private static byte[] rst(int streamId, ErrorCode code) {
		return encodeFrame(Frame.RST_STREAM, 0, streamId, int32(code.code()));
	}

}
