package io.khamsin.container.guard;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every guard answers a hostile or slow client with its status, closes what must be closed, counts the event,
 * and leaves the server serving others.
 */
@Timeout(30)
class GuardTests {

	private KhamsinServer server;

	private KhamsinServer start(KhamsinServerConfig.Builder config) {
		this.server = KhamsinServer.create(config.reactors(1).build(), new TestRoutes(Path.of("missing")).handler());
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
	void requestLineLongerThanTheLimitIsAnswered414() throws Exception {
		start(KhamsinServerConfig.builder().maxInitialLineLength(100));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /" + "a".repeat(200) + " HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.status()).isEqualTo(414);
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.MAX_INITIAL_LINE_LENGTH)).isEqualTo(1);
		assertServing();
	}

	@Test
	void headLargerThanTheLimitIsAnswered431() throws Exception {
		start(KhamsinServerConfig.builder().maxHeaderSize(1024));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(2000) + "\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(431);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.MAX_HEADER_SIZE)).isEqualTo(1);
		assertServing();
	}

	@Test
	void declaredBodyLargerThanTheLimitIsAnswered413BeforeItIsRead() throws Exception {
		start(KhamsinServerConfig.builder().maxRequestBodySize(1000));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(413);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.MAX_REQUEST_BODY_SIZE)).isEqualTo(1);
		assertServing();
	}

	@Test
	void chunkedBodyGrowingPastTheLimitIsAnswered413() throws Exception {
		start(KhamsinServerConfig.builder().maxRequestBodySize(1000));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /digest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
			String chunk = Integer.toHexString(600) + "\r\n" + "x".repeat(600) + "\r\n";
			connection.send(chunk + chunk);
			assertThat(connection.read().status()).isEqualTo(413);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.MAX_REQUEST_BODY_SIZE)).isEqualTo(1);
	}

	@Test
	void headSentTooSlowlyIsAnswered408AndClosed() throws Exception {
		start(KhamsinServerConfig.builder().headerReadTimeout(Duration.ofMillis(300)));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.status()).isEqualTo(408);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.HEADER_READ_TIMEOUT)).isEqualTo(1);
		assertServing();
	}

	@Test
	void bodyThatStallsIsAnswered408AndClosed() throws Exception {
		start(KhamsinServerConfig.builder().bodyReadTimeout(Duration.ofMillis(300)));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("POST /digest HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc");
			assertThat(connection.read().status()).isEqualTo(408);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.BODY_READ_TIMEOUT)).isEqualTo(1);
		assertServing();
	}

	@Test
	void idleKeepAliveConnectionIsClosed() throws Exception {
		start(KhamsinServerConfig.builder().idleTimeout(Duration.ofMillis(300)));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
			assertThat(connection.isClosedByServer(5000)).isTrue();
		}
		assertThat(this.server.guards().count(Guard.IDLE_TIMEOUT)).isEqualTo(1);
	}

	@Test
	void connectionsBeyondTheMaximumAreRefusedAtOnce() throws Exception {
		start(KhamsinServerConfig.builder().maxConnections(2));
		try (RawHttpConnection first = new RawHttpConnection(this.server.port());
				RawHttpConnection second = new RawHttpConnection(this.server.port())) {
			await().until(() -> this.server.connections().open() == 2);
			try (RawHttpConnection third = new RawHttpConnection(this.server.port())) {
				assertThat(third.isClosedByServer(5000)).isTrue();
			}
			first.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(first.read().status()).isEqualTo(200);
		}
		assertThat(this.server.connections().refused()).isEqualTo(1);
		assertThat(this.server.guards().count(Guard.MAX_CONNECTIONS)).isEqualTo(1);
		await().until(() -> this.server.connections().open() == 0);
		assertServing();
	}

	@Test
	void malformedRequestIsAnswered400() throws Exception {
		start(KhamsinServerConfig.builder());
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\nContent-Length: nope\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(400);
		}
		assertServing();
	}

	private void assertServing() throws IOException {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
		}
	}

}
