package io.khamsin.container.http1;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.transport.ConnectionSecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP/1.1 connection's state machine and its parts on an {@code EmbeddedChannel}, with no socket: pipelined
 * requests answered in order while reading waits for them, what a closed connection still held released, a request
 * body that breaks its chunked framing, and the switch out of HTTP after a {@code 101}.
 */
class Http1ServerHandlerTests {

	private final TestRoutes routes = new TestRoutes(Path.of("missing"));

	private final EmbeddedChannel channel = new EmbeddedChannel();

	private Http1ServerHandler handler;

	private ServerContext context;

	private void connect() {
		connect(this.routes.handler());
	}

	private void connect(HttpHandler httpHandler) {
		KhamsinServerConfig config = KhamsinServerConfig.builder().build();
		ServerContext context = new ServerContext(config.httpSettings(), httpHandler,
				new ConnectionRegistry(config.maxConnections()), new GuardCounters());
		this.context = context;
		ExchangeDispatcher exchanges = new ExchangeDispatcher(context, List.of(), config.compression(),
				config.forwarded(), null, config.overload());
		new Http1Initializer(context, exchanges).initialize(this.channel, ConnectionSecurity.PLAIN);
		this.handler = (Http1ServerHandler) this.channel.pipeline().get(Http1Initializer.HANDLER);
		this.channel.pipeline().fireChannelActive();
	}

	@AfterEach
	void close() {
		this.channel.finishAndReleaseAll();
	}

	@Test
	void pipelinedRequestsAreAnsweredInOrderAndReadingWaitsForTheSlowOne() {
		connect();
		send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"
				+ "GET /stream?count=2 HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(written()).as("nothing is answered before the first request").isEmpty();
		assertThat(this.channel.config().isAutoRead()).as("reading waits while requests queue").isFalse();
		this.routes.slowGate.countDown();
		String answers = awaitWritten("part-2");
		assertThat(answers.indexOf("done")).isLessThan(answers.indexOf("Hello, World!"));
		assertThat(answers.indexOf("Hello, World!")).isLessThan(answers.indexOf("part-1"));
		// The last response's end, and reading again after it, may come in a task after its last part.
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).untilAsserted(() -> {
			this.channel.runPendingTasks();
			assertThat(this.channel.config().isAutoRead()).as("reading again once the queue is empty").isTrue();
		});
	}

	@Test
	void aConnectionClosedWithRequestsQueuedReleasesThemAndCancelsTheOneInProgress() {
		connect();
		send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
		assertThat(this.handler.isAnswering()).as("the first request has arrived whole and is being answered").isTrue();
		assertThat(this.channel.config().isAutoRead()).as("the second waits, its body held").isFalse();
		this.channel.close();
		this.channel.runPendingTasks();
		assertThat(this.handler.isClosed()).isTrue();
		assertThat(this.handler.isAnswering()).as("the exchange in progress was cancelled").isFalse();
		this.routes.slowGate.countDown();
		assertThat(written()).as("nothing is written after the close").isEmpty();
	}

	@Test
	void aQueuedRequestWhoseChunkedBodyBreaksItsFramingIsRefusedOnceItsTurnComesAndTheConnectionClosed() {
		connect();
		send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n"
				+ "POST /digest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5 5\r\nworld\r\n"
				+ "GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
		this.routes.slowGate.countDown();
		String answers = awaitWritten("400 Bad Request");
		assertThat(answers.indexOf("done")).isLessThan(answers.indexOf("400 Bad Request"));
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).untilAsserted(() -> {
			this.channel.runPendingTasks();
			assertThat(this.channel.isOpen()).isFalse();
		});
		assertThat(answers).doesNotContain("Hello, World!");
	}

	@Test
	void afterA101TheBytesTheDecoderHeldGoToTheNewProtocol() {
		connect();
		this.channel.writeInbound(ascii("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"));
		this.channel.runPendingTasks();
		assertThat(written()).contains("Hello, World!");
		StringBuilder received = new StringBuilder();
		this.handler.upgrade().switchTo(Map.of("next", new ChannelInboundHandlerAdapter() {

			@Override
			public void channelRead(ChannelHandlerContext ctx, Object msg) {
				received.append(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
				ReferenceCountUtil.release(msg);
			}

		}));
		assertThat(this.channel.pipeline().get(Http1Initializer.CODEC)).isNull();
		this.channel.writeInbound(ascii("frames of another protocol"));
		assertThat(received).hasToString("frames of another protocol");
	}

	@Test
	void anAnsweredExchangeIsNotKeptAliveByItsLastWriteWhileThatWriteIsOnItsWay() {
		AtomicReference<WeakReference<ServerHttpRequest>> answered = new AtomicReference<>();
		connect((request, response) -> {
			answered.set(new WeakReference<>(request));
			return response.writeWith(Mono.just(response.bufferFactory().wrap("answered".getBytes(StandardCharsets.US_ASCII))));
		});
		// As on io_uring, where a write completes a ring pass after it was flushed: the writes go out, and their
		// promises wait here until released.
		List<ChannelPromise> onTheirWay = new ArrayList<>();
		this.channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {

			@Override
			public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
				onTheirWay.add(promise);
				ctx.write(msg);
			}

		});
		send("GET /answer HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(awaitWritten("answered")).startsWith("HTTP/1.1 200 OK");
		assertThat(onTheirWay).isNotEmpty().noneMatch(ChannelPromise::isDone);
		assertThat(this.context.metrics().totals().requestsActive()).as("the request ends when its write does").isOne();
		// Its request, response and the handler's chain are garbage while the write waits: only its clock listens.
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			System.gc();
			assertThat(answered.get().get()).as("the request, once answered").isNull();
		});
		onTheirWay.forEach(ChannelPromise::setSuccess);
		assertThat(this.context.metrics().totals().requestsActive()).isZero();
		assertThat(this.context.metrics().latency().sinceStart().values())
			.as("its latency recorded when the write completed")
			.singleElement()
			.extracting(Histogram::getTotalCount)
			.isEqualTo(1L);
	}

	private void send(String requests) {
		this.channel.writeInbound(ascii(requests));
		this.channel.runPendingTasks();
	}

	private String awaitWritten(String last) {
		StringBuilder all = new StringBuilder();
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
			// The handler's answer comes back from another thread as a task on the channel's event loop.
			this.channel.runPendingTasks();
			all.append(written());
			return all.indexOf(last) >= 0;
		});
		return all.toString();
	}

	private String written() {
		StringBuilder bytes = new StringBuilder();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			bytes.append(((ByteBuf) message).toString(StandardCharsets.US_ASCII));
			ReferenceCountUtil.release(message);
		}
		return bytes.toString();
	}

	private static ByteBuf ascii(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
	}

}
