package io.khamsin.container.http1;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.RecvByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.bridge.KhamsinServerHttpRequest;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.transport.ConnectionInitializer;
import io.khamsin.container.transport.SendTimeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a keep-alive connection keeps between requests, on a real socket: the handlers of its pipeline and nothing
 * of the HTTP/1.1 codec but the handlers themselves (the decoder and encoder are lent only while a message passes),
 * and a receive buffer allocator shared with the other connections. Each of these costs every idle connection
 * bytes if it regresses, which no behaviour test would notice.
 */
@Timeout(30)
class IdleConnectionTests {

	private static final byte[] HELLO = "Hello".getBytes();

	private final List<Channel> channels = new CopyOnWriteArrayList<>();

	private KhamsinServer server;

	@BeforeEach
	void start() {
		HttpHandler handler = (request, response) -> {
			this.channels.add(((KhamsinServerHttpRequest) request).channel());
			DataBuffer body = response.bufferFactory().wrap(HELLO);
			return response.writeWith(Mono.just(body));
		};
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(), handler);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	@Test
	void aConnectionBetweenRequestsHoldsOnlyItsHandlers() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(connection.read().bodyText()).isEqualTo("Hello");
			Channel channel = this.channels.get(0);
			await().untilAsserted(() -> {
				Map<String, ChannelHandler> handlers = channel.eventLoop().submit(() -> channel.pipeline().toMap())
					.get(5, TimeUnit.SECONDS);
				assertThat(handlers).containsOnlyKeys(ConnectionInitializer.TRAFFIC, SendTimeout.NAME,
						Http1Initializer.CODEC, Http1Initializer.HANDLER);
				Http1ServerCodec codec = (Http1ServerCodec) handlers.get(Http1Initializer.CODEC);
				assertThat(channel.eventLoop().submit(codec::holdsDecoder).get(5, TimeUnit.SECONDS)).isFalse();
				assertThat(channel.eventLoop().submit(codec::holdsEncoder).get(5, TimeUnit.SECONDS)).isFalse();
			});
		}
	}

	@Test
	void connectionsShareOneReceiveBufferAllocatorThatReadsSixteenTimesAWakeUp() throws Exception {
		try (RawHttpConnection first = new RawHttpConnection(this.server.port());
				RawHttpConnection second = new RawHttpConnection(this.server.port())) {
			first.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
			first.read();
			second.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
			second.read();
			RecvByteBufAllocator allocator = this.channels.get(0).config().getRecvByteBufAllocator();
			RecvByteBufAllocator other = this.channels.get(1).config().getRecvByteBufAllocator();
			assertThat((Object) other).isSameAs(allocator);
			assertThat(this.channels.get(1).config().getMaxMessagesPerRead()).isEqualTo(16);
		}
	}

}
