package io.khamsin.container.engine;

import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Graceful shutdown: no new connections, in-flight requests finish and are answered with
 * {@code Connection: close}, idle connections close, and the outcome is reported.
 */
@Timeout(30)
class GracefulShutdownTests {

	private final TestRoutes routes = new TestRoutes(Path.of("missing"));

	private KhamsinServer server;

	@BeforeEach
	void start() {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(2).build(), this.routes.handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.routes.slowGate.countDown();
		this.server.stop();
	}

	@Test
	void inFlightRequestCompletesAndIdleConnectionsClose() throws Exception {
		int port = this.server.port();
		try (RawHttpConnection busy = new RawHttpConnection(port); RawHttpConnection idle = new RawHttpConnection(port)) {
			idle.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(idle.read().status()).isEqualTo(200);
			busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
			await().until(() -> this.server.connections().open() == 2);

			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();

			assertThat(idle.isClosedByServer(5000)).isTrue();
			assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> new Socket("127.0.0.1", port).close());
			assertThat(result).isNotDone();
			this.routes.slowGate.countDown();
			RawHttpConnection.Response response = busy.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("done");
			assertThat(response.header("connection")).isEqualTo("close");
			assertThat(busy.isClosedByServer(5000)).isTrue();
			assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.IDLE);
		}
	}

	@Test
	void stopDuringGracefulShutdownReportsActiveRequests() throws Exception {
		try (RawHttpConnection busy = new RawHttpConnection(this.server.port())) {
			busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
			await().until(() -> this.server.connections().open() == 1);
			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();
			this.server.stop();
			assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.REQUESTS_ACTIVE);
			assertThat(busy.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void stopReturnsOnceTheConnectionsItClosedHaveClosed() throws Exception {
		int port = this.server.port();
		try (RawHttpConnection busy = new RawHttpConnection(port); RawHttpConnection idle = new RawHttpConnection(port);
				RawHttpConnection partial = new RawHttpConnection(port)) {
			idle.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(idle.read().status()).isEqualTo(200);
			busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
			partial.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n");
			await().until(() -> this.server.connections().open() == 3);
			this.server.stop();
			// stop returns with every connection closed: idle, mid-response and mid-request.
			assertThat(this.server.connections().open()).isZero();
			assertThat(busy.isClosedByServer(5000)).isTrue();
			assertThat(idle.isClosedByServer(5000)).isTrue();
			assertThat(partial.isClosedByServer(5000)).isTrue();
		}
	}

	@Test
	void gracefulShutdownWithNoConnectionsIsIdleAtOnce() throws Exception {
		assertThat(this.server.shutdownGracefully().get(5, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.IDLE);
	}

	@Test
	void serverCanBeStartedAgainAfterStop() throws Exception {
		this.server.stop();
		assertThat(this.server.port()).isEqualTo(-1);
		this.server.start();
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello, World!");
			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();
			assertThat(connection.isClosedByServer(5000)).isTrue();
			assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.IDLE);
		}
	}

}
