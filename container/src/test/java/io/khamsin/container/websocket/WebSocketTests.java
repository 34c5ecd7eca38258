package io.khamsin.container.websocket;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.LeakDetectionExtension;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * WebSocket through WebFlux on khamsin with the JDK's client: the handshake with what web filters add to it, echo
 * of text and binary messages, ping answered by pong, the close code seen by both sides, a message over the limit
 * closed with 1009, and the messages of a handler that never reads them released however its session ends.
 */
@Timeout(30)
class WebSocketTests {

	private AnnotationConfigApplicationContext context;

	private KhamsinServer server;

	private final HttpClient client = HttpClient.newHttpClient();

	@BeforeEach
	void start() {
		this.context = new AnnotationConfigApplicationContext(WebSocketConfig.class);
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				WebHttpHandlerBuilder.applicationContext(this.context).build());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
		this.context.close();
	}

	@Test
	void textAndBinaryMessagesAreEchoedAndCloseCodeIsExchanged() throws Exception {
		Listener listener = new Listener();
		WebSocket socket = this.client.newWebSocketBuilder()
			.buildAsync(URI.create("ws://127.0.0.1:" + this.server.port() + "/ws/echo"), listener)
			.get(5, TimeUnit.SECONDS);
		socket.sendText("hello", true).get(5, TimeUnit.SECONDS);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("text:hello");
		socket.sendBinary(ByteBuffer.wrap(new byte[] { 1, 2, 3 }), true).get(5, TimeUnit.SECONDS);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("binary:3");
		socket.sendPing(ByteBuffer.wrap(new byte[] { 9 })).get(5, TimeUnit.SECONDS);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("pong:1");
		socket.sendClose(4001, "done").get(5, TimeUnit.SECONDS);
		assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isEqualTo(4001);
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void messagesAreEchoedOverTls(TlsProvider provider) throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TlsConfig tls = TlsConfig.builder(certificates.server("localhost").material("localhost"))
			.provider(provider)
			.build();
		KhamsinServer secure = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).tls(tls).build(),
				WebHttpHandlerBuilder.applicationContext(this.context).build());
		secure.start();
		try {
			Listener listener = new Listener();
			WebSocket socket = HttpClient.newBuilder()
				.sslContext(certificates.clientContext(null))
				.build()
				.newWebSocketBuilder()
				.buildAsync(URI.create("wss://localhost:" + secure.port() + "/ws/echo"), listener)
				.get(5, TimeUnit.SECONDS);
			socket.sendText("over tls", true).get(5, TimeUnit.SECONDS);
			assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("text:over tls");
			socket.sendBinary(ByteBuffer.wrap(new byte[1000]), true).get(5, TimeUnit.SECONDS);
			assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("binary:1000");
			socket.sendClose(4002, "done").get(5, TimeUnit.SECONDS);
			assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isEqualTo(4002);
		}
		finally {
			secure.stop();
		}
	}

	@Test
	void serverClosesWithItsCodeWhenTheHandlerEnds() throws Exception {
		Listener listener = new Listener();
		this.client.newWebSocketBuilder()
			.buildAsync(URI.create("ws://127.0.0.1:" + this.server.port() + "/ws/bye"), listener)
			.get(5, TimeUnit.SECONDS);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("text:bye");
		assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isEqualTo(1000);
	}

	@Test
	void messageOverTheLimitIsClosedWith1009() throws Exception {
		Listener listener = new Listener();
		WebSocket socket = this.client.newWebSocketBuilder()
			.buildAsync(URI.create("ws://127.0.0.1:" + this.server.port() + "/ws/echo"), listener)
			.get(5, TimeUnit.SECONDS);
		socket.sendText("x".repeat(2048), true);
		assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isEqualTo(1009);
	}

	@Test
	void theHandshakeCarriesTheCookiesAndHeadersThatAWebFilterAdded() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			RawHttpConnection.Response handshake = connection.send("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
					+ "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
					+ "Sec-WebSocket-Version: 13\r\n\r\n")
				.readHead();
			assertThat(handshake.status()).isEqualTo(101);
			assertThat(handshake.header("Sec-WebSocket-Accept")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
			assertThat(handshake.header("Set-Cookie")).contains("flavour=ginger").contains("HttpOnly");
			assertThat(handshake.header("X-Filter")).isEqualTo("added");
			assertThat(handshake.header("X-Before-Commit")).isEqualTo("added at commit");
		}
	}

	@Test
	void framesAHandlerThatOnlySendsNeverReadAreReleasedWhenItEndsTheSession() throws Exception {
		int mark = LeakDetectionExtension.mark();
		Listener listener = new Listener();
		sendUnread("/ws/three", listener);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).isEqualTo("text:tick-0");
		assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isEqualTo(1000);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.server.connections().open() == 0);
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

	@Test
	void framesAHandlerThatOnlySendsNeverReadAreReleasedAndItsSendingEndsWhenTheConnectionIsLost()
			throws Exception {
		int mark = LeakDetectionExtension.mark();
		Listener listener = new Listener();
		WebSocket socket = sendUnread("/ws/ticks", listener);
		assertThat(listener.messages.poll(5, TimeUnit.SECONDS)).startsWith("text:tick-");
		socket.abort();
		assertThat(this.context.getBean(WebSocketConfig.class).ticksEnded.await(10, TimeUnit.SECONDS))
			.as("the ticking handler ended with its session").isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.server.connections().open() == 0);
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

	/** Open a session with a handler that only sends, and send it messages it will never read. */
	private WebSocket sendUnread(String path, Listener listener) throws Exception {
		WebSocket socket = this.client.newWebSocketBuilder()
			.buildAsync(URI.create("ws://127.0.0.1:" + this.server.port() + path), listener)
			.get(5, TimeUnit.SECONDS);
		for (int i = 0; i < 5; i++) {
			socket.sendText("unread " + i, true).get(5, TimeUnit.SECONDS);
		}
		return socket;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	static class WebSocketConfig {

		final CountDownLatch ticksEnded = new CountDownLatch(1);

		@Bean
		HandlerMapping webSocketMapping() {
			WebSocketHandler echo = (session) -> session.send(session.receive().map((message) -> switch (message.getType()) {
				case TEXT -> session.textMessage(message.getPayloadAsText());
				default -> session.binaryMessage((factory) -> {
					org.springframework.core.io.buffer.DataBufferUtils.retain(message.getPayload());
					return message.getPayload();
				});
			}));
			WebSocketHandler bye = (session) -> session.send(Mono.just(session.textMessage("bye")));
			WebSocketHandler three = (session) -> session
				.send(Flux.interval(Duration.ofMillis(100)).take(3).map((i) -> session.textMessage("tick-" + i)));
			WebSocketHandler ticks = (session) -> session
				.send(Flux.interval(Duration.ofMillis(20)).map((i) -> session.textMessage("tick-" + i)))
				.doFinally((signal) -> this.ticksEnded.countDown());
			return new SimpleUrlHandlerMapping(Map.of("/ws/echo", echo, "/ws/bye", bye, "/ws/three", three,
					"/ws/ticks", ticks), -1);
		}

		@Bean
		WebFilter cookieAndHeaderFilter() {
			return (exchange, chain) -> {
				ServerHttpResponse response = exchange.getResponse();
				response.addCookie(ResponseCookie.from("flavour", "ginger").httpOnly(true).build());
				response.getHeaders().set("X-Filter", "added");
				response.beforeCommit(() -> Mono.fromRunnable(
						() -> response.getHeaders().set("X-Before-Commit", "added at commit")));
				return chain.filter(exchange);
			};
		}

		@Bean
		WebSocketHandlerAdapter webSocketHandlerAdapter() {
			return new WebSocketHandlerAdapter(new HandshakeWebSocketService(new KhamsinRequestUpgradeStrategy(1024)));
		}

	}

	private static final class Listener implements WebSocket.Listener {

		final LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();

		final CompletableFuture<Integer> closed = new CompletableFuture<>();

		@Override
		public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
			this.messages.add("text:" + data);
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
			this.messages.add("binary:" + data.remaining());
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
			this.messages.add("pong:" + message.remaining());
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
			this.closed.complete(statusCode);
			return null;
		}

		@Override
		public void onError(WebSocket webSocket, Throwable error) {
			this.closed.completeExceptionally(error);
		}

	}

}
