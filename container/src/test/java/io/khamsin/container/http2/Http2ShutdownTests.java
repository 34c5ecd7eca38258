package io.khamsin.container.http2;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ShutdownResult;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A graceful shutdown of a server with HTTP/2 clients: each connection hears GOAWAY with the last stream the server
 * took, open streams finish, and the result counts streams as requests: {@code IDLE} once they are done,
 * {@code REQUESTS_ACTIVE} when the server is stopped while one is still open.
 */
@Timeout(60)
class Http2ShutdownTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final TestRoutes routes = new TestRoutes(Path.of("missing"));

	private KhamsinServer server;

	@BeforeEach
	void start() {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), this.routes.handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.routes.slowGate.countDown();
		this.server.stop();
	}

	private void awaitActiveRequests(long count) {
		await().atMost(WAIT).until(() -> this.server.metrics().totals().requestsActive() == count);
	}

	@Test
	void aGracefulShutdownSendsGoAwayWithTheLastStreamAndLetsItFinish() throws Exception {
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream slow = client.send("GET", "/slow", null);
			awaitActiveRequests(1);
			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();
			Http2GoAwayFrame goAway = client.goAway().get(20, TimeUnit.SECONDS);
			assertThat(goAway.errorCode()).isEqualTo(Http2Error.NO_ERROR.code());
			assertThat(client.goAwayLastStreamId()).isEqualTo(slow.channel().stream().id());
			assertThat(result).isNotDone();
			this.routes.slowGate.countDown();
			H2cClient.Response response = slow.response().get(20, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo("done");
			assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.IDLE);
		}
	}

	@Test
	void stoppingWhileAStreamIsOpenReportsRequestsActive() throws Exception {
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			client.send("GET", "/slow", null);
			awaitActiveRequests(1);
			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();
			client.goAway().get(20, TimeUnit.SECONDS);
			assertThat(result).isNotDone();
			this.server.stop();
			assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo(ShutdownResult.REQUESTS_ACTIVE);
		}
	}

}
