package io.khamsin.container.guard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Slow attackers on real sockets: a client that stops reading its response (slow read) loses its connection at
 * {@code khamsin.send-timeout} while a slow but steady reader gets all of it, and a request body trickled a few
 * bytes at a time (slow POST), never stalling for the body-read timeout, is answered 408 once it falls below
 * {@code khamsin.min-request-body-rate}, over HTTP/1.1 and HTTP/2; and a handler that never begins its response is
 * answered 503 at {@code khamsin.request-timeout}.
 */
@Timeout(60)
class SlowClientTests {

	/** More than the kernel buffers between the two ends hold. */
	private static final int FILE_SIZE = 8 * 1024 * 1024;

	@TempDir
	static Path directory;

	private static Path file;

	private KhamsinServer server;

	@BeforeAll
	static void writeFile() throws IOException {
		file = directory.resolve("large.bin");
		byte[] bytes = new byte[FILE_SIZE];
		new Random(7).nextBytes(bytes);
		Files.write(file, bytes);
	}

	private KhamsinServer start(KhamsinServerConfig.Builder config) {
		return startWith(config, new TestRoutes(file));
	}

	private KhamsinServer startWith(KhamsinServerConfig.Builder config, TestRoutes routes) {
		this.server = KhamsinServer.create(config.reactors(1).build(), routes.handler());
		this.server.start();
		return this.server;
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void aClientThatStopsReadingItsResponseLosesItsConnectionAtTheSendTimeout() throws Exception {
		start(KhamsinServerConfig.builder().sendTimeout(Duration.ofSeconds(1)));
		try (Socket socket = new Socket()) {
			socket.setReceiveBufferSize(4096);
			socket.connect(new InetSocketAddress("127.0.0.1", this.server.port()));
			socket.getOutputStream().write(request(false));
			InputStream in = socket.getInputStream();
			assertThat(in.readNBytes(1024)).as("the response begins").hasSize(1024);
			await().atMost(Duration.ofSeconds(20)).until(() -> this.server.guards().count(Guard.SEND_TIMEOUT) == 1);
			await().atMost(Duration.ofSeconds(10)).until(() -> this.server.connections().open() == 0);
			assertThat(readToEnd(in)).as("what arrives before the connection ends").isLessThan(FILE_SIZE);
		}
		assertServing();
	}

	@Test
	void aSlowButSteadyReaderGetsItsWholeResponse() throws Exception {
		start(KhamsinServerConfig.builder().sendTimeout(Duration.ofSeconds(2)));
		try (Socket socket = new Socket("127.0.0.1", this.server.port())) {
			socket.getOutputStream().write(request(true));
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[256 * 1024];
			long total = 0;
			long started = System.nanoTime();
			int read;
			while ((read = in.read(buffer)) != -1) {
				total += read;
				// About 2.5 MB/s: the socket takes more of the response between two checks, so the server waits.
				Thread.sleep(100);
			}
			assertThat(total).as("body and head").isGreaterThan(FILE_SIZE);
			assertThat(System.nanoTime() - started).as("took longer than the send timeout")
				.isGreaterThan(TimeUnit.SECONDS.toNanos(2));
		}
		assertThat(this.server.guards().count(Guard.SEND_TIMEOUT)).isZero();
	}

	@Test
	void aBodyTrickledBelowTheMinimumRateIsAnswered408() throws Exception {
		// A body-read timeout of 3 s, not 10 s, makes the connection's timer run in time for the end of the grace
		// period; the trickle never stalls for more than 250 ms, so it is the rate, not the stall, that is answered.
		start(KhamsinServerConfig.builder().minRequestBodyRate(1000).bodyReadTimeout(Duration.ofSeconds(3)));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /digest HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n");
			long started = System.nanoTime();
			RawHttpConnection.Response response = trickle(connection.socket().getOutputStream(), connection);
			assertThat(response.status()).isEqualTo(408);
			assertThat(System.nanoTime() - started).as("not before the grace period")
				.isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(5));
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.MIN_REQUEST_BODY_RATE)).isEqualTo(1);
		assertThat(this.server.guards().count(Guard.BODY_READ_TIMEOUT)).isZero();
		assertServing();
	}

	@Test
	void aBodyAboveTheMinimumRateIsRead() throws Exception {
		start(KhamsinServerConfig.builder().minRequestBodyRate(100));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /digest HTTP/1.1\r\nHost: a\r\nContent-Length: 1400\r\n\r\n");
			OutputStream out = connection.socket().getOutputStream();
			for (int i = 0; i < 7; i++) {
				// 200 bytes a second: twice the minimum, for longer than the grace period
				out.write("x".repeat(200).getBytes(StandardCharsets.US_ASCII));
				out.flush();
				Thread.sleep(1000);
			}
			assertThat(connection.read().status()).isEqualTo(200);
		}
		assertThat(this.server.guards().count(Guard.MIN_REQUEST_BODY_RATE)).isZero();
	}

	@Test
	void anHttp2BodyTrickledBelowTheMinimumRateIsAnswered408() throws Exception {
		start(KhamsinServerConfig.builder().minRequestBodyRate(1000).http2(
				io.khamsin.container.http2.Http2Config.builder().enabled(true).build()));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream stream = client.open(true);
			stream.sendHeaders("POST", "/digest", false);
			for (int i = 0; i < 40 && !stream.response().isDone(); i++) {
				stream.sendData(Unpooled.wrappedBuffer(new byte[] { 'x' }), false);
				Thread.sleep(250);
			}
			assertThat(stream.response().get(10, TimeUnit.SECONDS).status()).isEqualTo(408);
		}
		assertThat(this.server.guards().count(Guard.MIN_REQUEST_BODY_RATE)).isEqualTo(1);
	}

	@Test
	void anHttp2StreamTheClientGivesNoCreditIsResetAtTheSendTimeoutWhileTheConnectionServesOn() throws Exception {
		start(KhamsinServerConfig.builder().sendTimeout(Duration.ofSeconds(1)).http2(
				io.khamsin.container.http2.Http2Config.builder().enabled(true).build()));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream stalled = client.open(false);
			stalled.sendHeaders("GET", "/file", true);
			assertThat(stalled.response()).failsWithin(Duration.ofSeconds(20));
			assertThat(this.server.guards().count(Guard.SEND_TIMEOUT)).isEqualTo(1);
			// The client's stream holds the frames it did not read until it reads them, and then closes.
			stalled.read();
			await().atMost(Duration.ofSeconds(10)).until(() -> !stalled.channel().isOpen());
			H2cClient.Response next = client.send("GET", "/plaintext", null).response().get(10, TimeUnit.SECONDS);
			assertThat(next.text()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void aHandlerThatDoesNotBeginItsResponseInTimeIsAnswered503AndTheConnectionServesOn() throws Exception {
		TestRoutes routes = new TestRoutes(file);
		startWith(KhamsinServerConfig.builder().requestTimeout(Duration.ofMillis(500)).http2(
				io.khamsin.container.http2.Http2Config.builder().enabled(true).build()), routes);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(503);
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			assertThat(client.send("GET", "/slow", null).response().get(10, TimeUnit.SECONDS).status()).isEqualTo(503);
			assertThat(client.send("GET", "/plaintext", null).response().get(10, TimeUnit.SECONDS).text())
				.isEqualTo("Hello, World!");
		}
		finally {
			routes.slowGate.countDown();
		}
		assertThat(this.server.guards().count(Guard.REQUEST_TIMEOUT)).isEqualTo(2);
	}

	@Test
	void withoutARequestTimeoutASlowHandlerIsWaitedFor() throws Exception {
		TestRoutes routes = new TestRoutes(file);
		startWith(KhamsinServerConfig.builder(), routes);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.isClosedByServer(1500)).as("closed or answered").isFalse();
			routes.slowGate.countDown();
			assertThat(connection.read().bodyText()).isEqualTo("done");
		}
		assertThat(this.server.guards().count(Guard.REQUEST_TIMEOUT)).isZero();
	}

	/**
	 * Send a byte every 250 ms, never stalling for the body-read timeout, until the server answers: the rate is
	 * first looked at when the connection's timer next runs, within its shortest timeout.
	 */
	private static RawHttpConnection.Response trickle(OutputStream out, RawHttpConnection connection)
			throws IOException, InterruptedException {
		connection.socket().setSoTimeout(250);
		for (int i = 0; i < 100; i++) {
			out.write('x');
			out.flush();
			try {
				RawHttpConnection.Response response = connection.read();
				connection.socket().setSoTimeout(10_000);
				return response;
			}
			catch (java.net.SocketTimeoutException ex) {
				// no answer yet
			}
		}
		throw new AssertionError("no answer to a body trickled for 25 s");
	}

	private static byte[] request(boolean close) {
		return ("GET /file HTTP/1.1\r\nHost: a\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
			.getBytes(StandardCharsets.US_ASCII);
	}

	private static long readToEnd(InputStream in) {
		long total = 0;
		byte[] buffer = new byte[64 * 1024];
		try {
			int read;
			while ((read = in.read(buffer)) != -1) {
				total += read;
			}
		}
		catch (IOException ex) {
			// reset by the server: the end
		}
		return total;
	}

	private void assertServing() throws IOException {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
	}

}
