package io.khamsin.container.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.observation.ObservationRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.server.handler.ResponseStatusExceptionHandler;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.bridge.RouteObservationHandler;
import io.khamsin.container.bridge.RouteWebFilter;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine's figures count what a client did: every request once, under its route, status class and path,
 * timed from its head to its last byte leaving; connections, requests in flight and bytes per reactor; nothing per
 * request when switched off.
 */
@Timeout(60)
class MetricsTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final CountDownLatch gate = new CountDownLatch(1);

	private KhamsinServer server;

	/** Whether routes come from an observation handler rather than from the web filter. */
	private boolean observed;

	private KhamsinServer start(MetricsConfig metrics) {
		return start(metrics, KhamsinServerConfig.builder());
	}

	private KhamsinServer start(MetricsConfig metrics, KhamsinServerConfig.Builder config) {
		RouterFunction<ServerResponse> routes = RouterFunctions.route()
			.GET("/items/{id}", (request) -> ServerResponse.ok().bodyValue("item " + request.pathVariable("id")))
			.GET("/users/{id}", (request) -> ServerResponse.ok().bodyValue("user"))
			.GET("/gated", (request) -> Mono.fromCallable(() -> {
				this.gate.await();
				return "done";
			})
				.subscribeOn(Schedulers.boundedElastic())
				.flatMap((done) -> ServerResponse.ok().bodyValue("done")))
			.GET("/teapot", (request) -> ServerResponse.status(HttpStatus.I_AM_A_TEAPOT).build())
			.build();
		WebHttpHandlerBuilder builder = WebHttpHandlerBuilder.webHandler(RouterFunctions.toWebHandler(routes))
			.exceptionHandler(new ResponseStatusExceptionHandler());
		if (this.observed) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new RouteObservationHandler());
			builder.observationRegistry(registry);
		}
		else {
			builder.filter(new RouteWebFilter());
		}
		HttpHandler handler = builder.build();
		this.server = KhamsinServer.create(config.reactors(2).build(), handler,
				KhamsinMetrics.create(metrics));
		this.server.start();
		return this.server;
	}

	@AfterEach
	void stop() {
		this.gate.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void everyRequestIsRecordedOnceUnderItsRouteStatusAndPath() throws Exception {
		start(MetricsConfig.defaults());
		for (int i = 0; i < 20; i++) {
			assertThat(get("/items/" + i).statusCode()).isEqualTo(200);
		}
		for (int i = 0; i < 5; i++) {
			assertThat(get("/nowhere/" + i).statusCode()).isEqualTo(404);
		}
		assertThat(get("/teapot").statusCode()).isEqualTo(418);
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			assertThat(count(latencies, "2xx", "/items/{id}")).isEqualTo(20);
			assertThat(count(latencies, "4xx", "other")).isEqualTo(5);
			assertThat(count(latencies, "4xx", "/teapot")).isEqualTo(1);
			assertThat(latencies.values().stream().mapToLong(Histogram::getTotalCount).sum()).isEqualTo(26);
		});
	}

	@Test
	void routesComeFromTheStartOfEachObservationWithoutAWebFilter() throws Exception {
		this.observed = true;
		start(MetricsConfig.defaults());
		for (int i = 0; i < 10; i++) {
			assertThat(get("/items/" + i).statusCode()).isEqualTo(200);
		}
		assertThat(get("/teapot").statusCode()).isEqualTo(418);
		assertThat(get("/nowhere").statusCode()).isEqualTo(404);
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			assertThat(count(latencies, "2xx", "/items/{id}")).isEqualTo(10);
			assertThat(count(latencies, "4xx", "/teapot")).isEqualTo(1);
			assertThat(count(latencies, "4xx", "other")).isEqualTo(1);
		});
	}

	@Test
	void latencyIsAtLeastWhatTheHandlerTook() throws Exception {
		start(MetricsConfig.defaults());
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request("/gated"),
				HttpResponse.BodyHandlers.ofString());
		await().atMost(WAIT).until(() -> this.server.metrics().totals().requestsActive() == 1);
		long waited = System.nanoTime();
		Thread.sleep(50);
		this.gate.countDown();
		assertThat(response.get().statusCode()).isEqualTo(200);
		long atLeast = System.nanoTime() - waited;
		await().atMost(WAIT).untilAsserted(() -> {
			Histogram gated = histogram(this.server.metrics().latency().sinceStart(), "2xx", "/gated");
			assertThat(gated).isNotNull();
			assertThat(gated.getTotalCount()).isEqualTo(1);
			assertThat(gated.getMaxValue()).isGreaterThanOrEqualTo(atLeast / 2);
		});
		await().atMost(WAIT).until(() -> this.server.metrics().totals().requestsActive() == 0);
	}

	@Test
	void fixedResponsesAreRecordedOnTheFastPathUnderTheFixedRoute() throws Exception {
		start(MetricsConfig.defaults(), KhamsinServerConfig.builder()
			.fixedResponse(FixedResponse.of("/ping", 200, "text/plain", "pong"))
			.fixedResponse(FixedResponse.of("/empty", 204, "text/plain", "")));
		for (int i = 0; i < 3; i++) {
			assertThat(get("/ping").body()).isEqualTo("pong");
		}
		assertThat(get("/empty").statusCode()).isEqualTo(204);
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\nGET /ping HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
			assertThat(connection.read().status()).isEqualTo(200);
		}
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			assertThat(latencies.get(new LatencyKey(Protocol.H1, "2xx", "fixed", RequestPath.FAST)).getTotalCount())
				.isEqualTo(6);
			assertThat(latencies).containsOnlyKeys(new LatencyKey(Protocol.H1, "2xx", "fixed", RequestPath.FAST));
			assertThat(this.server.metrics().totals().requestsActive()).isZero();
			assertThat(this.server.metrics().totals().requests()).isEqualTo(6);
		});
	}

	@Test
	void aKeptAliveFixedResponseIsTimedUntilItsBytesHaveLeft() throws Exception {
		// Writes reach the socket 300 ms after they are flushed, as they would through a slow network.
		Duration lag = Duration.ofMillis(300);
		start(MetricsConfig.defaults(), KhamsinServerConfig.builder()
			.fixedResponse(FixedResponse.of("/ping", 200, "text/plain", "pong"))
			.customizer((bootstrap) -> {
				ChannelHandler khamsin = bootstrap.config().childHandler();
				bootstrap.childHandler(new ChannelInitializer<>() {

					@Override
					protected void initChannel(Channel channel) {
						channel.pipeline().addLast(new LaggingFlush(lag)).addLast(khamsin);
					}

				});
			}));
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("pong");
			assertThat(connection.isClosedByServer(100)).isFalse();
		}
		await().atMost(WAIT).untilAsserted(() -> {
			Histogram fixed = this.server.metrics()
				.latency()
				.sinceStart()
				.get(new LatencyKey(Protocol.H1, "2xx", "fixed", RequestPath.FAST));
			assertThat(fixed).isNotNull();
			assertThat(fixed.getTotalCount()).isEqualTo(1);
			assertThat(fixed.getMaxValue()).isGreaterThanOrEqualTo(lag.toNanos());
		});
	}

	/** Holds every flush for a while before it reaches the socket. */
	private static final class LaggingFlush extends ChannelOutboundHandlerAdapter {

		private final Duration lag;

		LaggingFlush(Duration lag) {
			this.lag = lag;
		}

		@Override
		public void flush(ChannelHandlerContext ctx) {
			ctx.executor().schedule(ctx::flush, this.lag.toMillis(), TimeUnit.MILLISECONDS);
		}

	}

	private static final Duration IDLE_BEFORE_REQUEST = Duration.ofMillis(300);

	@Test
	void latencyStartsAtTheFirstByteOfTheRequestHead() throws Exception {
		start(MetricsConfig.defaults());
		long sent;
		long clientSide;
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			// The connection sits idle before its request: that time is not the request's.
			Thread.sleep(IDLE_BEFORE_REQUEST.toMillis());
			// The client's clock starts before its first byte leaves and stops once the answer arrived.
			sent = System.nanoTime();
			connection.send("GET /items/1 HTTP/1.1\r\n");
			// The client is slow to finish its head: that time is part of the request's latency.
			Thread.sleep(400);
			connection.send("Host: a\r\n\r\n");
			assertThat(connection.read().status()).isEqualTo(200);
			clientSide = System.nanoTime() - sent;
		}
		await().atMost(WAIT).untilAsserted(() -> {
			Histogram items = histogram(this.server.metrics().latency().sinceStart(), "2xx", "/items/{id}");
			assertThat(items).isNotNull();
			// Timed from the head's end it would be a millisecond; the server may read the first byte late on a
			// busy machine, so only half the client's pause is required. The server's clock stops when its write
			// has completed, which on a busy machine can be a little after the client read the answer: a slack
			// of a third of the idle time, which a clock started at the connection's accept would exceed.
			assertThat(items.getMaxValue()).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos())
				.isLessThanOrEqualTo(items.highestEquivalentValue(clientSide
						+ IDLE_BEFORE_REQUEST.toNanos() / 3));
		});
	}

	@Test
	void pipelinedRequestsAreEachRecorded() throws Exception {
		start(MetricsConfig.defaults());
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: a\r\n\r\n"
					+ "GET /users/3 HTTP/1.1\r\nHost: a\r\n\r\n");
			for (int i = 0; i < 3; i++) {
				assertThat(connection.read().status()).isEqualTo(200);
			}
		}
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			assertThat(count(latencies, "2xx", "/items/{id}")).isEqualTo(2);
			assertThat(count(latencies, "2xx", "/users/{id}")).isEqualTo(1);
		});
	}

	@Test
	void connectionsRequestsAndBytesAreCountedPerReactor() throws Exception {
		start(MetricsConfig.defaults());
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			assertThat(response.status()).isEqualTo(200);
			await().atMost(WAIT).untilAsserted(() -> {
				ReactorSnapshot totals = this.server.metrics().totals();
				assertThat(totals.connectionsOpen()).isEqualTo(1);
				assertThat(totals.requests()).isEqualTo(1);
				assertThat(totals.bytesReceived()).isEqualTo("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n".length());
				assertThat(totals.bytesSent()).isGreaterThan(response.body().length);
			});
		}
		assertThat(this.server.metrics().reactors()).hasSize(2)
			.extracting(ReactorSnapshot::name)
			.containsExactly("reactor-0", "reactor-1");
		await().atMost(WAIT).untilAsserted(() -> {
			ReactorSnapshot totals = this.server.metrics().totals();
			assertThat(totals.connectionsOpen()).isZero();
			assertThat(totals.connectionsAccepted()).isEqualTo(1);
			assertThat(totals.connectionsClosed()).isEqualTo(1);
			assertThat(totals.requestsActive()).isZero();
		});
	}

	@Test
	void requestsCutOffByTheClientLeaveNoneInFlight() throws Exception {
		start(MetricsConfig.defaults());
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /gated HTTP/1.1\r\nHost: a\r\n\r\n");
			await().atMost(WAIT).until(() -> this.server.metrics().totals().requestsActive() == 1);
		}
		await().atMost(WAIT).untilAsserted(() -> {
			ReactorSnapshot totals = this.server.metrics().totals();
			assertThat(totals.requestsActive()).isZero();
			assertThat(totals.connectionsOpen()).isZero();
		});
		assertThat(this.server.metrics().latency().sinceStart()).isEmpty();
	}

	@Test
	void routesBeyondTheLimitAreTaggedOther() throws Exception {
		start(MetricsConfig.builder().maxRoutes(1).build());
		assertThat(get("/items/1").statusCode()).isEqualTo(200);
		assertThat(get("/users/1").statusCode()).isEqualTo(200);
		await().atMost(WAIT).untilAsserted(() -> {
			Map<LatencyKey, Histogram> latencies = this.server.metrics().latency().sinceStart();
			assertThat(count(latencies, "2xx", "/items/{id}")).isEqualTo(1);
			assertThat(count(latencies, "2xx", "other")).isEqualTo(1);
		});
	}

	@Test
	void listenersHearEachLatencyOnce() throws Exception {
		start(MetricsConfig.defaults());
		AtomicLong heard = new AtomicLong();
		this.server.metrics().addLatencyListener((key, latencies) -> heard.addAndGet(latencies.getTotalCount()));
		for (int i = 0; i < 10; i++) {
			get("/items/" + i);
			this.server.metrics().drain();
		}
		await().atMost(WAIT).untilAsserted(() -> {
			this.server.metrics().drain();
			assertThat(heard.get()).isEqualTo(10);
		});
		this.server.metrics().drain();
		assertThat(heard.get()).isEqualTo(10);
	}

	@Test
	void switchedOffRecordsNoRequestsOrBytes() throws Exception {
		start(MetricsConfig.builder().enabled(false).build());
		for (int i = 0; i < 5; i++) {
			assertThat(get("/items/" + i).statusCode()).isEqualTo(200);
		}
		KhamsinMetrics metrics = this.server.metrics();
		assertThat(metrics.latency().sinceStart()).isEmpty();
		assertThat(metrics.totals().requests()).isZero();
		assertThat(metrics.totals().bytesReceived()).isZero();
		assertThat(metrics.totals().connectionsAccepted()).isPositive();
	}

	@Test
	void badConfigurationIsRejectedWithTheOptionNamed() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> MetricsConfig.builder().maxRoutes(-1).build())
			.withMessageContaining("maxRoutes");
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> MetricsConfig.builder().interval(Duration.ZERO).build())
			.withMessageContaining("interval");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.client.send(request(path), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.server.port() + path))
			.timeout(WAIT)
			.build();
	}

	private static long count(Map<LatencyKey, Histogram> latencies, String status, String route) {
		Histogram histogram = histogram(latencies, status, route);
		return (histogram != null) ? histogram.getTotalCount() : 0;
	}

	private static Histogram histogram(Map<LatencyKey, Histogram> latencies, String status, String route) {
		return latencies.get(new LatencyKey(Protocol.H1, status, route, RequestPath.HANDLER));
	}

}
