package io.khamsin.container.http2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.accesslog.AccessLogConfig;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.LatencyKey;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An HTTP/2 stream goes through the exchange stage every protocol shares: the application's answers, its errors,
 * the server's fixed responses and limits, the access log and the figures, as HTTP/1.1 requests do, the stream
 * standing for the connection where HTTP/1.1 would close it.
 */
@Timeout(60)
class Http2ExchangeTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	Path dir;

	private KhamsinServer server;

	private KhamsinServer start(KhamsinServerConfig.Builder config) {
		return start(config, new TestRoutes(Path.of("missing")));
	}

	private KhamsinServer start(KhamsinServerConfig.Builder config, TestRoutes routes) {
		this.server = KhamsinServer.create(config.reactors(1).http2(Http2Config.builder().enabled(true).build()).build(),
				routes.handler());
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
	void serverSentEventsArriveAsTheyAreSentNotAtTheEnd() throws Exception {
		TestRoutes routes = new TestRoutes(Path.of("missing"));
		start(KhamsinServerConfig.builder(), routes);
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream sse = client.send("GET", "/sse-on-demand", null);
			routes.events.tryEmitNext("event-0");
			await().atMost(TIMEOUT).until(() -> sse.bytesReceived() >= "data:event-0\n\n".length());
			assertThat(sse.response()).as("the stream is still open after its first event").isNotDone();
			routes.events.tryEmitNext("event-1");
			routes.events.tryEmitNext("event-2");
			routes.events.tryEmitComplete();
			H2cClient.Response response = sse.response().get(30, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.headers().get(HttpHeaderNames.CONTENT_TYPE).toString()).startsWith("text/event-stream");
			assertThat(response.text()).isEqualTo("data:event-0\n\ndata:event-1\n\ndata:event-2\n\n");
		}
	}

	@Test
	void aFixedResponseIsAnsweredOverHttp2WithItsHeadersAndADate() throws Exception {
		start(KhamsinServerConfig.builder()
			.serverHeader("khamsin")
			.fixedResponse(new FixedResponse("/livez", 200, "text/plain", "OK".getBytes(StandardCharsets.US_ASCII),
					java.util.Map.of("Cache-Control", "no-store"))));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Response get = client.send("GET", "/livez", null).response().get(30, TimeUnit.SECONDS);
			assertThat(get.status()).isEqualTo(200);
			assertThat(get.text()).isEqualTo("OK");
			assertThat(get.headers().get("content-length").toString()).isEqualTo("2");
			assertThat(get.headers().get("cache-control").toString()).isEqualTo("no-store");
			assertThat(get.headers().get("server").toString()).isEqualTo("khamsin");
			assertThat(get.headers().get("date")).isNotNull();
			H2cClient.Response head = client.send("HEAD", "/livez", null).response().get(30, TimeUnit.SECONDS);
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.body()).isEmpty();
		}
	}

	@Test
	void theApplicationsErrorsEndTheStreamAndTheConnectionServesOn() throws Exception {
		start(KhamsinServerConfig.builder());
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			assertThat(client.send("GET", "/boom", null).response().get(30, TimeUnit.SECONDS).status()).isEqualTo(500);
			assertThat(client.send("GET", "/status", null).response().get(30, TimeUnit.SECONDS).status())
				.isEqualTo(418);
			H2cClient.Stream afterCommit = client.send("GET", "/boom-after-commit", null);
			assertThat(afterCommit.response()).failsWithin(TIMEOUT)
				.withThrowableThat()
				.withMessageContaining("Stream reset: " + io.netty.handler.codec.http2.Http2Error.INTERNAL_ERROR.code());
			H2cClient.Response next = client.send("GET", "/plaintext", null).response().get(30, TimeUnit.SECONDS);
			assertThat(next.text()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void aBodyOverTheLimitIsRefusedWith413AndTheStreamResetWhileTheConnectionServesOn() throws Exception {
		start(KhamsinServerConfig.builder().maxRequestBodySize(16));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream tooLarge = client.open(true);
			tooLarge.sendHeaders("POST", "/echo", false);
			tooLarge.sendData(io.netty.buffer.Unpooled.wrappedBuffer(new byte[64]), false);
			assertThat(tooLarge.response().get(30, TimeUnit.SECONDS).status()).isEqualTo(413);
			assertThat(this.server.guards().count(Guard.MAX_REQUEST_BODY_SIZE)).isEqualTo(1);
			H2cClient.Response small = client.send("POST", "/echo", "tiny".getBytes(StandardCharsets.US_ASCII))
				.response()
				.get(30, TimeUnit.SECONDS);
			assertThat(small.text()).isEqualTo("tiny");
		}
	}

	@Test
	void aStreamTheClientResetsCancelsItsExchange() throws Exception {
		start(KhamsinServerConfig.builder());
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream slow = client.send("GET", "/slow", null);
			await().atMost(TIMEOUT).until(() -> this.server.metrics().totals().requestsActive() == 1);
			slow.channel().close().syncUninterruptibly();
			await().atMost(TIMEOUT).until(() -> this.server.metrics().totals().requestsActive() == 0);
			assertThat(client.send("GET", "/plaintext", null).response().get(30, TimeUnit.SECONDS).status())
				.isEqualTo(200);
		}
	}

	@Test
	void theAccessLogAndTheFiguresNameHttp2() throws Exception {
		Path log = this.dir.resolve("access.log");
		start(KhamsinServerConfig.builder().accessLog(AccessLogConfig.of("common", log.toString())));
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			assertThat(client.send("GET", "/plaintext?x=1", null).response().get(30, TimeUnit.SECONDS).status())
				.isEqualTo(200);
		}
		await().atMost(TIMEOUT).until(() -> Files.exists(log) && !Files.readAllLines(log).isEmpty());
		List<String> lines = Files.readAllLines(log);
		assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - \\[.*] \"GET /plaintext\\?x=1 HTTP/2\\.0\" 200 13");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(this.server.metrics().latency().sinceStart().keySet())
			.extracting(LatencyKey::protocol)
			.contains(Protocol.H2));
	}

	@Test
	void curlsExpectContinueIsAnsweredWhenTheApplicationReadsTheBody() {
		CommandLine.assumeInstalled("curl", "curl");
		start(KhamsinServerConfig.builder());
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2-prior-knowledge", "-H",
				"Expect: 100-continue", "--data-binary", "Hello World", "-w", "\\n%{http_code}",
				"http://127.0.0.1:" + this.server.port() + "/echo");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello World\n200");
	}

	@Test
	void cookiesSentAsSeveralFieldsReachTheApplicationAsOneHeader() throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		start(KhamsinServerConfig.builder());
		// curl sends each -b cookie of an HTTP/2 request in a field of its own (RFC 9113, section 8.2.3).
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2-prior-knowledge", "-b",
				"seen=yes; other=1", "http://127.0.0.1:" + this.server.port() + "/cookie");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("yes");
	}

	@Test
	void h2loadGetsEveryAnswerOverManyConcurrentStreams() {
		CommandLine.assumeInstalled("h2load", "nghttp2-client");
		start(KhamsinServerConfig.builder());
		CommandLine.Result result = CommandLine.run(null, Duration.ofSeconds(50), "h2load", "-c", "8", "-m", "100",
				"-n", "20000", "http://127.0.0.1:" + this.server.port() + "/plaintext");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.find("requests: \\d+ total, \\d+ started, \\d+ done, (\\d+) succeeded")).as(result.toString())
			.isEqualTo("20000");
		assertThat(result.find("status codes: (\\d+) 2xx")).as(result.toString()).isEqualTo("20000");
		assertThat(this.server.guards().count(Guard.H2_MAX_CONCURRENT_STREAMS)).isZero();
	}

}
