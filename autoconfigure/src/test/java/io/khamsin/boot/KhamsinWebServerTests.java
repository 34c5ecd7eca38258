package io.khamsin.boot;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class KhamsinWebServerTests {

	private static final HttpHandler OK = (request, response) -> response.setComplete();

	private KhamsinWebServer webServer;

	private RawHttpConnection client;

	@AfterEach
	void tearDown() throws IOException {
		if (this.client != null) {
			this.client.close();
		}
		if (this.webServer != null) {
			this.webServer.destroy();
		}
	}

	@Test
	void canBeStartedAgainAfterStop() throws IOException {
		this.webServer = create(OK, Shutdown.IMMEDIATE);
		this.webServer.start();
		assertThat(this.webServer.getPort()).isPositive();
		assertAccepts(this.webServer.getPort());
		this.webServer.stop();
		assertThat(this.webServer.getPort()).isEqualTo(-1);
		this.webServer.start();
		assertThat(this.webServer.getPort()).isPositive();
		assertAccepts(this.webServer.getPort());
	}

	@Test
	void portIsMinusOneBeforeStartAndOnceDestroyed() {
		this.webServer = create(OK, Shutdown.IMMEDIATE);
		assertThat(this.webServer.getPort()).isEqualTo(-1);
		this.webServer.start();
		assertThat(this.webServer.getPort()).isPositive();
		this.webServer.destroy();
		assertThat(this.webServer.getPort()).isEqualTo(-1);
	}

	@Test
	void stopAndDestroyReleaseThePort() {
		this.webServer = create(OK, Shutdown.IMMEDIATE);
		this.webServer.start();
		int port = this.webServer.getPort();
		this.webServer.stop();
		assertRefuses(port);
		this.webServer.start();
		port = this.webServer.getPort();
		this.webServer.destroy();
		assertRefuses(port);
	}

	@Test
	void cannotBeStartedAgainOnceDestroyed() {
		this.webServer = create(OK, Shutdown.IMMEDIATE);
		this.webServer.start();
		this.webServer.destroy();
		assertThatExceptionOfType(WebServerException.class).isThrownBy(this.webServer::start)
			.withMessageContaining("destroyed");
	}

	@Test
	void aTakenPortRaisesBootsPortInUseException() throws IOException {
		try (ServerSocket taken = new ServerSocket(0)) {
			this.webServer = create(OK, Shutdown.IMMEDIATE, taken.getLocalPort());
			assertThatThrownBy(this.webServer::start).isInstanceOfSatisfying(PortInUseException.class,
					(ex) -> assertThat(ex.getPort()).isEqualTo(taken.getLocalPort()));
			assertThat(this.webServer.getPort()).isEqualTo(-1);
		}
	}

	@Test
	void keepsANonDaemonThreadAliveWhileRunningSoThatTheApplicationDoesNotExit() {
		await().atMost(Duration.ofSeconds(10)).until(() -> liveNonDaemonServerThreads() == 0);
		this.webServer = create(OK, Shutdown.IMMEDIATE);
		this.webServer.start();
		assertThat(liveNonDaemonServerThreads()).isEqualTo(1);
		this.webServer.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> liveNonDaemonServerThreads() == 0);
	}

	@Test
	void gracefulShutdownWithNoConnectionReportsIdle() {
		this.webServer = create(OK, Shutdown.GRACEFUL);
		this.webServer.start();
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		await().atMost(Duration.ofSeconds(10)).until(() -> !results.isEmpty());
		assertThat(results).containsExactly(GracefulShutdownResult.IDLE);
	}

	@Test
	void gracefulShutdownLetsAnActiveRequestFinishAndThenReportsIdle() throws IOException {
		CountDownLatch handling = new CountDownLatch(1);
		Sinks.Empty<Void> finish = Sinks.empty();
		this.webServer = create((request, response) -> {
			handling.countDown();
			return finish.asMono().then(response.setComplete());
		}, Shutdown.GRACEFUL);
		this.webServer.start();
		int port = this.webServer.getPort();
		sendRequest(port);
		await().atMost(Duration.ofSeconds(10)).until(() -> handling.getCount() == 0);
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		assertRefuses(port);
		assertThat(results).isEmpty();
		finish.tryEmitEmpty();
		RawHttpConnection.Response response = this.client.read();
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.header("connection")).isEqualToIgnoringCase("close");
		await().atMost(Duration.ofSeconds(10)).until(() -> !results.isEmpty());
		assertThat(results).containsExactly(GracefulShutdownResult.IDLE);
	}

	@Test
	void gracefulShutdownReportsRequestsActiveWhenStoppedWhileARequestIsActive() throws IOException {
		CountDownLatch handling = new CountDownLatch(1);
		this.webServer = create((request, response) -> {
			handling.countDown();
			return Mono.never();
		}, Shutdown.GRACEFUL);
		this.webServer.start();
		sendRequest(this.webServer.getPort());
		await().atMost(Duration.ofSeconds(10)).until(() -> handling.getCount() == 0);
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		assertThat(results).isEmpty();
		this.webServer.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !results.isEmpty());
		assertThat(results).containsExactly(GracefulShutdownResult.REQUESTS_ACTIVE);
	}

	@Test
	void shutdownDelayKeepsAcceptingAndServingAfterTheShutdownHasBegun() throws IOException {
		this.webServer = create(OK, Shutdown.GRACEFUL, 0, Duration.ofMinutes(10));
		this.webServer.start();
		int port = this.webServer.getPort();
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		sendRequest(port);
		RawHttpConnection.Response response = this.client.read();
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.header("connection")).isNull();
		assertAccepts(port);
		assertThat(results).isEmpty();
	}

	@Test
	void stopDuringTheShutdownDelayClosesAtOnceAndReportsImmediate() {
		this.webServer = create(OK, Shutdown.GRACEFUL, 0, Duration.ofMinutes(10));
		this.webServer.start();
		int port = this.webServer.getPort();
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		this.webServer.stop();
		assertThat(results).containsExactly(GracefulShutdownResult.IMMEDIATE);
		assertRefuses(port);
	}

	@Test
	void gracefulShutdownBeginsOnceTheShutdownDelayHasPassed() {
		List<GracefulShutdownResult> results = shutDownAfterAShortDelay();
		this.webServer.stop();
		assertThat(results).as("a stop after the delay cuts nothing short").containsExactly(GracefulShutdownResult.IDLE);
	}

	@Test
	void theShutdownDelayEndsWhileTheCommonPoolIsBusy() {
		// An application that keeps the common pool's workers busy (one worker on two cores) must not hold the delay's
		// end until Boot's phase timeout stops the server without a graceful shutdown. Fails on JDK 25 with the delay
		// ended through CompletableFuture.delayedExecutor (JDK 17 runs such a task on a thread of its own when the
		// common pool has one worker, JDK 25 on the pool).
		CountDownLatch release = new CountDownLatch(1);
		int workers = ForkJoinPool.commonPool().getParallelism();
		for (int i = 0; i < workers; i++) {
			ForkJoinPool.commonPool().execute(() -> awaitUninterruptibly(release));
		}
		try {
			shutDownAfterAShortDelay();
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void stopDoesNotHangOnARequestThatBlocksItsReactor() throws Exception {
		CountDownLatch handling = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.webServer = create((request, response) -> {
			handling.countDown();
			awaitUninterruptibly(release);
			return response.setComplete();
		}, Shutdown.GRACEFUL);
		try {
			this.webServer.start();
			sendRequest(this.webServer.getPort());
			await().atMost(Duration.ofSeconds(10)).until(() -> handling.getCount() == 0);
			CompletableFuture<Void> stopped = CompletableFuture.runAsync(this.webServer::stop);
			// Each of stop()'s waits is bounded (a listener's close 2 s, the connections' 2 s, the reactors' 5 s): about
			// 9 s with a reactor held, so the bound here has room and still tells a bounded stop from a hang.
			await().atMost(Duration.ofSeconds(30)).until(stopped::isDone);
			assertThat(this.webServer.getPort()).isEqualTo(-1);
		}
		finally {
			release.countDown();
		}
	}

	/**
	 * Start a server with a shutdown delay of 100 ms, shut it down gracefully, and see the delay end: the shutdown
	 * completes idle and the listener refuses connections.
	 * @return what the shutdown's callback was told
	 */
	private List<GracefulShutdownResult> shutDownAfterAShortDelay() {
		this.webServer = create(OK, Shutdown.GRACEFUL, 0, Duration.ofMillis(100));
		this.webServer.start();
		int port = this.webServer.getPort();
		List<GracefulShutdownResult> results = new CopyOnWriteArrayList<>();
		this.webServer.shutDownGracefully(results::add);
		await().atMost(Duration.ofSeconds(10)).until(() -> !results.isEmpty());
		assertThat(results).containsExactly(GracefulShutdownResult.IDLE);
		assertRefuses(port);
		return results;
	}

	private KhamsinWebServer create(HttpHandler handler, Shutdown shutdown) {
		return create(handler, shutdown, 0);
	}

	private KhamsinWebServer create(HttpHandler handler, Shutdown shutdown, int port) {
		return create(handler, shutdown, port, Duration.ZERO);
	}

	private KhamsinWebServer create(HttpHandler handler, Shutdown shutdown, int port, Duration shutdownDelay) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(port);
		factory.setShutdownDelay(shutdownDelay);
		factory.setAddress(InetAddress.getLoopbackAddress());
		factory.addConfigCustomizers((config) -> config.reactors(2));
		factory.setShutdown(shutdown);
		return (KhamsinWebServer) factory.getWebServer(handler);
	}

	private void sendRequest(int port) throws IOException {
		this.client = new RawHttpConnection(port);
		this.client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
	}

	private static void assertAccepts(int port) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			assertThat(socket.isConnected()).isTrue();
		}
	}

	private static void assertRefuses(int port) {
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close());
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static long liveNonDaemonServerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals("khamsin-server") && !thread.isDaemon() && thread.isAlive())
			.count();
	}

}
