package io.khamsin.container.guard;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import io.netty.util.internal.ThreadExecutorMap;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission control on real sockets ({@code khamsin.overload.max-queue-delay}): requests that waited for their
 * reactor behind a handler's work are answered 503 with {@code Retry-After} at once, their connections serve on, and
 * without the setting every request waits for its turn. A request the test sends while the reactor is held busy is
 * read in the reactor's next turn together with the others: the first two of them are taken, the rest have waited
 * longer than the maximum (the second's work) by the time the reactor reads them.
 */
@Timeout(60)
class OverloadTests {

	private static final int WAITING = 6;

	/** The first two requests of a turn are taken; the time is counted from the second. */
	private static final int TAKEN = 2;

	/**
	 * Far more than a request costs here even with the tests' debug logging, far less than {@code /work}'s
	 * {@value #WORK_MILLIS} ms.
	 */
	private static final Duration MAX_QUEUE_DELAY = Duration.ofMillis(40);

	private static final long WORK_MILLIS = 150;

	private final CountDownLatch held = new CountDownLatch(1);

	private volatile boolean released;

	private KhamsinServer server;

	@AfterEach
	void stop() {
		this.released = true;
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void requestsThatWaitedLongerThanTheMaximumAreAnswered503AndTheirConnectionsServeOn() throws Exception {
		start(KhamsinServerConfig.builder().overload(OverloadConfig.maxQueueDelay(MAX_QUEUE_DELAY)));
		List<RawHttpConnection> connections = open(WAITING + 1);
		try {
			holdReactor(connections.get(0));
			for (RawHttpConnection connection : connections.subList(1, connections.size())) {
				connection.send("GET /work HTTP/1.1\r\nHost: a\r\n\r\n");
			}
			this.released = true;
			assertThat(connections.get(0).read().bodyText()).isEqualTo("held");
			List<RawHttpConnection.Response> responses = new ArrayList<>();
			for (RawHttpConnection connection : connections.subList(1, connections.size())) {
				responses.add(connection.read());
			}
			assertThat(responses).filteredOn((response) -> response.status() == 200).hasSize(TAKEN);
			List<RawHttpConnection.Response> refused = responses.stream().filter((r) -> r.status() == 503).toList();
			assertThat(refused).hasSize(WAITING - TAKEN).allSatisfy((response) -> {
				assertThat(response.header("retry-after")).isEqualTo("1");
				assertThat(response.header("content-length")).isEqualTo("0");
				assertThat(response.header("connection")).isNull();
			});
			for (RawHttpConnection connection : connections) {
				// A request that comes while the reactor is still in that busy turn is refused too; one alone in its
				// turn is taken.
				await().atMost(Duration.ofSeconds(10)).until(() -> {
					connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
					return "ok".equals(connection.read().bodyText());
				});
			}
		}
		finally {
			close(connections);
		}
		assertThat(this.server.guards().count(Guard.OVERLOAD)).isGreaterThanOrEqualTo(WAITING - TAKEN);
	}

	@Test
	void aRefusedRequestWithABodyIsAnswered503WithRetryAfterAndItsConnectionClosed() throws Exception {
		start(KhamsinServerConfig.builder().overload(OverloadConfig.maxQueueDelay(MAX_QUEUE_DELAY)));
		List<RawHttpConnection> connections = open(TAKEN + 2);
		try {
			holdReactor(connections.get(0));
			List<RawHttpConnection> posting = connections.subList(1, connections.size());
			for (RawHttpConnection connection : posting) {
				connection.send("POST /work HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
			}
			this.released = true;
			List<Integer> statuses = new ArrayList<>();
			RawHttpConnection refused = null;
			String retryAfter = null;
			for (RawHttpConnection connection : posting) {
				RawHttpConnection.Response response = connection.read();
				statuses.add(response.status());
				if (response.status() == 503) {
					refused = connection;
					retryAfter = response.header("retry-after");
				}
			}
			assertThat(statuses).containsExactlyInAnyOrder(200, 200, 503);
			assertThat(retryAfter).as("the refusal says when to try again").isEqualTo("1");
			assertThat(refused.isClosedByServer(5000)).as("its body unread, the connection ends").isTrue();
		}
		finally {
			close(connections);
		}
		assertThat(this.server.guards().count(Guard.OVERLOAD)).isEqualTo(1);
	}

	@Test
	void withoutAdmissionControlEveryRequestWaitsForItsTurn() throws Exception {
		start(KhamsinServerConfig.builder());
		List<RawHttpConnection> connections = open(WAITING + 1);
		try {
			holdReactor(connections.get(0));
			for (RawHttpConnection connection : connections.subList(1, connections.size())) {
				connection.send("GET /work HTTP/1.1\r\nHost: a\r\n\r\n");
			}
			this.released = true;
			for (RawHttpConnection connection : connections.subList(1, connections.size())) {
				assertThat(connection.read().status()).isEqualTo(200);
			}
		}
		finally {
			close(connections);
		}
		assertThat(this.server.guards().count(Guard.OVERLOAD)).isZero();
	}

	@Test
	void http2StreamsThatWaitedLongerThanTheMaximumAreAnswered503AndTheConnectionServesOn() throws Exception {
		start(KhamsinServerConfig.builder()
			.overload(OverloadConfig.maxQueueDelay(MAX_QUEUE_DELAY))
			.http2(Http2Config.builder().enabled(true).build()));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream holder = client.send("GET", "/hold", null);
			assertThat(this.held.await(10, TimeUnit.SECONDS)).isTrue();
			List<H2cClient.Stream> streams = new ArrayList<>();
			for (int i = 0; i < WAITING; i++) {
				streams.add(client.send("GET", "/work", null));
			}
			// The frames are in the server's socket when the reactor is let go.
			Thread.sleep(200);
			this.released = true;
			assertThat(holder.response().get(10, TimeUnit.SECONDS).text()).isEqualTo("held");
			List<H2cClient.Response> responses = new ArrayList<>();
			for (H2cClient.Stream stream : streams) {
				responses.add(stream.response().get(10, TimeUnit.SECONDS));
			}
			assertThat(responses).filteredOn((response) -> response.status() == 200).hasSize(TAKEN);
			assertThat(responses).filteredOn((response) -> response.status() == 503)
				.hasSize(WAITING - TAKEN)
				.allSatisfy((response) -> assertThat(response.headers().get("retry-after")).hasToString("1"));
			assertThat(client.send("GET", "/plaintext", null).response().get(10, TimeUnit.SECONDS).text())
				.isEqualTo("ok");
		}
		assertThat(this.server.guards().count(Guard.OVERLOAD)).isEqualTo(WAITING - TAKEN);
	}

	private void start(KhamsinServerConfig.Builder config) throws Exception {
		this.server = KhamsinServer.create(config.reactors(1).build(), handler());
		this.server.start();
		// A cold server's first requests cost far more than a warm one's: not what is measured here.
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			for (int i = 0; i < 50; i++) {
				connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
				assertThat(connection.read().bodyText()).isEqualTo("ok");
			}
		}
	}

	/**
	 * {@code /hold} keeps the reactor busy once it has answered, until the test lets it go, {@code /work} takes 150 ms of the reactor's
	 * time, anything else answers at once.
	 */
	private HttpHandler handler() {
		return (request, response) -> {
			String path = request.getPath().value();
			String body = "ok";
			if (path.equals("/hold")) {
				// Held in a task of the reactor's, after the turn that read this request: the requests sent
				// meanwhile are all read in the next turn.
				ThreadExecutorMap.currentExecutor().execute(() -> {
					this.held.countDown();
					while (!this.released) {
						Thread.onSpinWait();
					}
				});
				body = "held";
			}
			else if (path.equals("/work")) {
				// CPU time, as admission control counts it, however busy the machine's other processes keep it
				ThreadMXBean threads = ManagementFactory.getThreadMXBean();
				long end = threads.getCurrentThreadCpuTime() + TimeUnit.MILLISECONDS.toNanos(WORK_MILLIS);
				while (threads.getCurrentThreadCpuTime() < end) {
					Thread.onSpinWait();
				}
			}
			response.setStatusCode(HttpStatus.OK);
			DataBuffer buffer = response.bufferFactory().wrap(body.getBytes(StandardCharsets.US_ASCII));
			return request.getBody()
				.doOnNext(DataBufferUtils::release)
				.then(response.writeWith(Mono.just(buffer)));
		};
	}

	private void holdReactor(RawHttpConnection connection) throws Exception {
		connection.send("GET /hold HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(this.held.await(10, TimeUnit.SECONDS)).as("the reactor is held").isTrue();
	}

	private List<RawHttpConnection> open(int count) throws Exception {
		List<RawHttpConnection> connections = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			RawHttpConnection connection = new RawHttpConnection(this.server.port());
			connections.add(connection);
			// Accepted and registered before the reactor is held.
			connection.send("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
		}
		return connections;
	}

	private static void close(List<RawHttpConnection> connections) throws Exception {
		for (RawHttpConnection connection : connections) {
			connection.close();
		}
	}

}
