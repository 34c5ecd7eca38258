package io.khamsin.container.http3;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ShutdownResult;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.H3Client;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.test.UdpRebindingRelay;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.transport.ListenerInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * HTTP/3 on a real UDP socket with Netty's HTTP/3 client: requests with and without bodies through the bridge, many
 * streams of one connection at once, a server-sent event stream, and HTTP/1.1, HTTP/2 and HTTP/3 on one port number
 * at once with {@code Alt-Svc} announcing HTTP/3 on the first two.
 */
@Timeout(120)
class Http3Tests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	static Path dir;

	private static TestCertificates certificates;

	private static TestCertificates.Issued localhost;

	private static Path caPem;

	private static Path file;

	private KhamsinServer server;

	private TestRoutes routes;

	@BeforeAll
	static void issue() throws Exception {
		certificates = TestCertificates.create();
		localhost = certificates.server("localhost", "127.0.0.1");
		caPem = certificates.writeCaPem(dir.resolve("ca.pem"));
		byte[] content = new byte[3 * 1024 * 1024 + 17];
		new Random(7).nextBytes(content);
		file = Files.write(dir.resolve("file.bin"), content);
	}

	private void start(boolean http3, int reactors) {
		start(http3, reactors, KhamsinServerConfig.DEFAULT_BODY_READ_TIMEOUT);
	}

	private void start(boolean http3, int reactors, Duration bodyReadTimeout) {
		start(http3, reactors, bodyReadTimeout, Http3Config.builder().enabled(http3).build());
	}

	private void start(boolean http3, int reactors, Duration bodyReadTimeout, Http3Config http3Config) {
		this.routes = new TestRoutes(file);
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(reactors)
			.bodyReadTimeout(bodyReadTimeout)
			.tls(TlsConfig.builder(localhost.material("localhost")).build())
			.http2(Http2Config.builder().enabled(true).build())
			.http3(http3Config)
			.fixedResponse(FixedResponse.of("/health", 200, "text/plain", "UP"))
			.build(), this.routes.handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		if (this.routes != null) {
			this.routes.slowGate.countDown();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void getsAndPostsOverHttp3() throws Exception {
		start(true, 1);
		assertThat(this.server.listeners()).extracting(ListenerInfo::protocols)
			.containsExactly(List.of("h2", "http/1.1"), List.of("h3"));
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			H3Client.Response hello = client.send("GET", "/plaintext", null);
			assertThat(hello.status()).isEqualTo(200);
			assertThat(hello.headers().get("alt-svc").toString()).isEqualTo("h3=\":" + this.server.port() + "\"; ma=86400");
			assertThat(hello.text()).isEqualTo("Hello, World!");
			assertThat(hello.headers().get("content-type").toString()).startsWith("text/plain");
			byte[] upload = new byte[4 * 1024 * 1024 + 3];
			new Random(13).nextBytes(upload);
			H3Client.Response echo = client.send("POST", "/echo", upload);
			assertThat(echo.status()).isEqualTo(200);
			// Compared by position, as AssertJ's dump of two 4 MiB arrays says nothing: a response's tail once went
			// missing when Netty sent the stream's FIN ahead of data held back for QUIC's credit.
			assertThat(Arrays.mismatch(echo.body(), upload)).as("first byte where the echo of %d bytes (%d received) "
					+ "differs", upload.length, echo.body().length).isEqualTo(-1);
			H3Client.Response missing = client.send("GET", "/nothing-here", null);
			assertThat(missing.status()).isEqualTo(404);
			H3Client.Response download = client.send("GET", "/file", null);
			assertThat(download.status()).isEqualTo(200);
			assertThat(sha256(download.body())).isEqualTo(sha256(Files.readAllBytes(file)));
		}
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H3)).isEqualTo(4));
		// The QUIC handshake counts in the TLS figures as a TCP one does.
		assertThat(this.server.metrics().tls().totals().full()).isEqualTo(1);
	}

	@Test
	void manyStreamsOfOneConnectionAreServedAtOnceUpToItsLimit() throws Exception {
		start(true, 2);
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			// Four waves of half as many streams as the server allows at once, 200 echoes in all, more than one
			// connection's first grant: each wave is served whole, and the server grants new streams as the old ones
			// end. (Whole waves of the limit itself left the client waiting for the server's next grant past the
			// timeout once in eight runs with both cores busy: open.)
			for (int wave = 0; wave < 4; wave++) {
				List<CompletableFuture<H3Client.Response>> responses = new ArrayList<>();
				for (int i = 0; i < Http3Config.DEFAULT_MAX_BIDIRECTIONAL_STREAMS / 2; i++) {
					responses.add(client.sendAsync("POST", "/echo", ("stream " + wave + "/" + i).getBytes(),
							(headers) -> {
							}));
				}
				for (int i = 0; i < responses.size(); i++) {
					H3Client.Response done = responses.get(i).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
					assertThat(done.status()).isEqualTo(200);
					assertThat(done.text()).isEqualTo("stream " + wave + "/" + i);
				}
			}
			assertThat(client.connection().peerTransportParameters()).isNotNull();
		}
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H3)).isEqualTo(200));
	}

	@Test
	void aClientThatCancelsStreamsFasterThanAllowedLosesItsConnection() throws Exception {
		start(true, 1, KhamsinServerConfig.DEFAULT_BODY_READ_TIMEOUT,
				Http3Config.builder().enabled(true).maxResetsPerWindow(20).build());
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			// Rapid Reset over HTTP/3: each download cancelled once its first bytes are in, so that the server has
			// dispatched every request it is asked to forget.
			int cancelled = 0;
			while (!client.closedByPeer().isDone() && cancelled < 500) {
				try {
					client.getAndCancel("/file", 1).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
					cancelled++;
				}
				catch (Exception ex) {
					break;
				}
			}
			QuicConnectionCloseEvent close = client.closedByPeer().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(close.isApplicationClose()).isTrue();
			assertThat(close.error()).as("H3_EXCESSIVE_LOAD").isEqualTo(0x107);
			// The server counts a stream once its side has closed, which may lag the client's resets by a few.
			assertThat(cancelled).isGreaterThanOrEqualTo(20);
		}
		assertThat(this.server.guards().count(Guard.H3_RAPID_RESET)).isEqualTo(1);
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			assertThat(client.send("GET", "/plaintext", null).text()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void aConnectionWhoseClientChangesItsPortStaysOnTheReactorThatOwnsIt() throws Exception {
		// Two reactors, two UDP sockets on one port: the kernel picks a socket by the client's address, so a client
		// whose NAT rebinds reaches the other socket about every second time. Netty's dispatcher sends each packet to
		// the socket whose index its connection ID carries; a codec per socket without it would not know the
		// connection there, and the request after such a rebinding would go unanswered. Eight connections rebind
		// once each (quiche takes one passive migration of a connection to a new port here; a second one goes
		// unanswered with or without the dispatcher, on one reactor as on two).
		start(true, 2);
		int port = this.server.port();
		Set<String> reactors = new HashSet<>();
		for (int i = 0; i < 8; i++) {
			try (UdpRebindingRelay relay = new UdpRebindingRelay(new InetSocketAddress("127.0.0.1", port), 2);
					H3Client client = new H3Client(relay.port(), port, certificates.ca())) {
				String before = client.send("GET", "/thread", null).text();
				relay.rebind(1);
				H3Client.Response after = client.send("GET", "/thread", null);
				assertThat(after.status()).isEqualTo(200);
				assertThat(after.text()).as("the reactor after the client's port changed").isEqualTo(before);
				reactors.add(before);
				H3Client.Response connection = client.send("GET", "/connection", null);
				assertThat(connection.text()).startsWith("scheme=https\nsession=").doesNotContain("session=none");
			}
		}
		assertThat(reactors).allMatch((name) -> name.startsWith("khamsin-reactor"));
	}

	@Test
	void aClientWhoseFirstDatagramsAreLargerThanTheServersLimitIsServed() throws Exception {
		// The server advertises 1350 bytes (max_udp_payload_size), but a client's Initial packets leave before it
		// knows, padded to the client's own size: here 1472 bytes, all an Ethernet path carries. Read many to a system
		// call, each datagram must still get room for all of it: cut, its packet would fail to decrypt and the
		// handshake never complete.
		CommandLine.assumeInstalled("gtlsclient", "ngtcp2-client");
		start(true, 1);
		int port = this.server.port();
		Path downloads = Files.createTempDirectory(dir, "gtlsclient-1472");
		try (UdpRebindingRelay relay = new UdpRebindingRelay(new InetSocketAddress("127.0.0.1", port), 1)) {
			CommandLine.Result result = gtlsclient(downloads, relay.port(), port,
					List.of("--max-udp-payload-size=1472", "--handshake-timeout=5s"), "/plaintext");
			assertThat(relay.largestFromClient()).as("the client's longest datagram").isEqualTo(1472);
			assertThat(result.exitCode()).as(result.toString()).isZero();
		}
		assertThat(Files.readString(downloads.resolve("plaintext"))).isEqualTo("Hello, World!");
	}

	@Test
	void ngtcp2sClientFetchesTextAndAFileOverHttp3() throws Exception {
		CommandLine.assumeInstalled("gtlsclient", "ngtcp2-client");
		start(true, 2);
		int port = this.server.port();
		Path downloads = Files.createTempDirectory(dir, "gtlsclient");
		CommandLine.Result result = gtlsclient(downloads, port, port, List.of(), "/plaintext", "/file");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(Files.readString(downloads.resolve("plaintext"))).isEqualTo("Hello, World!");
		assertThat(sha256(Files.readAllBytes(downloads.resolve("file")))).isEqualTo(sha256(Files.readAllBytes(file)));
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H3)).isEqualTo(2));
	}

	/**
	 * Run ngtcp2's client, quiet, each path fetched on one connection and saved under {@code downloads}.
	 * @param sendPort the UDP port it sends to (the server's, or a relay's)
	 * @param port the server's port, as the requests name it
	 */
	private static CommandLine.Result gtlsclient(Path downloads, int sendPort, int port, List<String> options,
			String... paths) {
		List<String> command = new ArrayList<>(List.of("gtlsclient", "--quiet", "--no-quic-dump", "--no-http-dump",
				"--exit-on-all-streams-close", "--sni=localhost", "--download=" + downloads));
		command.addAll(options);
		command.add("127.0.0.1");
		command.add(Integer.toString(sendPort));
		for (String path : paths) {
			command.add("https://localhost:" + port + path);
		}
		return CommandLine.run(null, TIMEOUT, command);
	}

	@Test
	void aGracefulShutdownSendsGoAwayAndLetsTheStreamItTookFinish() throws Exception {
		start(true, 1);
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			CompletableFuture<H3Client.Response> slow = client.sendAsync("GET", "/slow", null, (headers) -> {
			});
			await().atMost(TIMEOUT).until(() -> this.server.metrics().totals().requestsActive() == 1);
			CompletableFuture<ShutdownResult> result = this.server.shutdownGracefully();
			Http3ClientConnectionHandler connection = client.connection()
				.pipeline()
				.get(Http3ClientConnectionHandler.class);
			await().atMost(TIMEOUT).until(connection::isGoAwayReceived);
			assertThat(result).isNotDone();
			this.routes.slowGate.countDown();
			H3Client.Response response = slow.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo("done");
			assertThat(result.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(ShutdownResult.IDLE);
			await().atMost(TIMEOUT).until(() -> !client.connection().isActive());
		}
	}

	@Test
	void aResponseTheClientCancelsEndsItsExchangeAndTheConnectionServesOn() throws Exception {
		start(true, 1);
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			long received = client.getAndCancel("/stream?count=100000000", 16 * 1024)
				.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(received).isGreaterThanOrEqualTo(16 * 1024);
			// The handler's subscription is cancelled: the endless body stops, and the exchange ends.
			await().atMost(Duration.ofSeconds(5)).until(() -> this.server.metrics().totals().requestsActive() == 0);
			assertThat(client.send("GET", "/plaintext", null).text()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void aRequestBodyThatStallsIsAnswered408() throws Exception {
		start(true, 1, Duration.ofMillis(500));
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			H3Client.Response response = client.sendUnfinished("POST", "/digest", new byte[100])
				.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(response.status()).isEqualTo(408);
			assertThat(this.server.guards().count(Guard.BODY_READ_TIMEOUT)).isEqualTo(1);
			assertThat(client.send("GET", "/plaintext", null).text()).isEqualTo("Hello, World!");
		}
	}

	@Test
	void serverSentEventsArriveOverHttp3() throws Exception {
		start(true, 1);
		try (H3Client client = new H3Client(this.server.port(), certificates.ca())) {
			H3Client.Response events = client.send("GET", "/sse", null);
			assertThat(events.status()).isEqualTo(200);
			assertThat(events.headers().get("content-type").toString()).startsWith("text/event-stream");
			assertThat(events.text()).contains("data:");
		}
	}

	@Test
	void http11Http2AndHttp3AreServedOnOnePortNumberAtOnce() throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		start(true, 2);
		int port = this.server.port();
		String altSvc = "h3=\":" + port + "\"; ma=86400";
		try (H3Client client = new H3Client(port, certificates.ca())) {
			CompletableFuture<H3Client.Response> h3 = client.sendAsync("GET", "/plaintext", null, (headers) -> {
			});
			CommandLine.Result h1 = curl("--http1.1", port);
			CommandLine.Result h2 = curl("--http2", port);
			assertThat(h1.output()).contains("HTTP/1.1 200").containsIgnoringCase("alt-svc: " + altSvc)
				.endsWith("Hello, World!");
			assertThat(h2.output()).contains("HTTP/2 200").containsIgnoringCase("alt-svc: " + altSvc)
				.endsWith("Hello, World!");
			H3Client.Response response = h3.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(response.text()).isEqualTo("Hello, World!");
			// The fast path announces HTTP/3 too, in its pre-encoded heads, and serves over HTTP/3.
			CommandLine.Result fixed = CommandLine.run(null, TIMEOUT, "curl", "-sS", "-i", "--http1.1", "--cacert",
					caPem.toString(), "https://localhost:" + port + "/health");
			assertThat(fixed.output()).containsIgnoringCase("alt-svc: " + altSvc).endsWith("UP");
			H3Client.Response health = client.send("GET", "/health", null);
			assertThat(health.status()).isEqualTo(200);
			assertThat(health.text()).isEqualTo("UP");
			assertThat(health.headers().get("alt-svc").toString()).isEqualTo(altSvc);
		}
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H1)).isEqualTo(2));
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H2)).isEqualTo(1));
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(requests(Protocol.H3)).isEqualTo(2));
	}

	@Test
	void withoutHttp3NoResponseAnnouncesIt() throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		start(false, 1);
		assertThat(this.server.protocols()).doesNotContain("h3");
		assertThat(curl("--http1.1", this.server.port()).output()).doesNotContainIgnoringCase("alt-svc");
		assertThat(curl("--http2", this.server.port()).output()).doesNotContainIgnoringCase("alt-svc");
	}

	@Test
	void http3WithoutTlsIsRefusedWithAReason() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KhamsinServerConfig.builder().http3(Http3Config.builder().enabled(true).build()).build())
			.withMessageContaining("server.ssl");
	}

	private long requests(Protocol protocol) {
		return this.server.metrics()
			.latency()
			.sinceStart()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().protocol() == protocol)
			.mapToLong((entry) -> entry.getValue().getTotalCount())
			.sum();
	}

	private CommandLine.Result curl(String version, int port) throws Exception {
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "-i", version, "--cacert",
				caPem.toString(), "https://localhost:" + port + "/plaintext");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		return result;
	}

	private static String sha256(byte[] bytes) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
	}

}
