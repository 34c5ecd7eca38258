package io.khamsin.container.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A burst of new connections reaches a busy reactor at once: while a few keep-alive clients keep its one reactor
 * working (each request holds it 10 ms, as a slow handler would), 48 clients connect together and each sends one
 * request. The listener takes the whole burst when it wakes up, so every newcomer is answered within a couple of the
 * reactor's turns. A listener that takes one connection per turn (Netty 4.2's epoll listener left to itself) makes the
 * last newcomer wait one turn of 16 busy requests for each connection before it (12.9 s measured on epoll).
 */
@Timeout(120)
class ListenerAcceptTests {

	private static final int BUSY_CLIENTS = 16;

	private static final int NEWCOMERS = 48;

	private static final long WORK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final String REQUEST = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n";

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void aBurstOfNewConnectionsIsTakenAtOnceByABusyReactor(Transport transport) throws Exception {
		String unavailability = TransportResolver.unavailability(transport);
		assumeTrue(unavailability == null, () -> transport.displayName() + " is not available on this machine ("
				+ unavailability + ")");
		HttpHandler routes = new TestRoutes(null).handler();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.transport(transport)
			.build(), (request, response) -> Mono.fromRunnable(ListenerAcceptTests::work)
				.then(routes.handle(request, response)));
		server.start();
		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService clients = Executors.newFixedThreadPool(BUSY_CLIENTS + NEWCOMERS);
		try {
			List<CompletableFuture<Void>> busy = new ArrayList<>();
			for (int i = 0; i < BUSY_CLIENTS; i++) {
				busy.add(CompletableFuture.runAsync(() -> keepBusy(server.port(), running), clients));
			}
			Thread.sleep(500);
			List<CompletableFuture<Duration>> newcomers = new ArrayList<>();
			for (int i = 0; i < NEWCOMERS; i++) {
				newcomers.add(CompletableFuture.supplyAsync(() -> firstAnswer(server.port()), clients));
			}
			Duration slowest = Duration.ZERO;
			for (CompletableFuture<Duration> newcomer : newcomers) {
				Duration waited = newcomer.get(60, TimeUnit.SECONDS);
				slowest = (waited.compareTo(slowest) > 0) ? waited : slowest;
			}
			running.set(false);
			for (CompletableFuture<Void> client : busy) {
				client.get(30, TimeUnit.SECONDS);
			}
			// Taken at once: two turns of at most 64 requests of 10 ms (0.7 s), with room for a loaded machine.
			assertThat(slowest).as("the slowest of %d new connections to %s waited for its answer", NEWCOMERS,
					transport.displayName())
				.isLessThan(Duration.ofSeconds(3));
		}
		finally {
			running.set(false);
			clients.shutdownNow();
			server.stop();
		}
	}

	/** What a slow handler does with the reactor: holds it. */
	private static void work() {
		long end = System.nanoTime() + WORK_NANOS;
		for (long left = WORK_NANOS; left > 0; left = end - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

	private static void keepBusy(int port, AtomicBoolean running) {
		try (RawHttpConnection connection = new RawHttpConnection(port)) {
			while (running.get()) {
				assertThat(connection.send(REQUEST).read().status()).isEqualTo(200);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Duration firstAnswer(int port) {
		long start = System.nanoTime();
		try (RawHttpConnection connection = new RawHttpConnection(port)) {
			connection.socket().setSoTimeout(30_000);
			assertThat(connection.send(REQUEST).read().status()).isEqualTo(200);
			return Duration.ofNanos(System.nanoTime() - start);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
