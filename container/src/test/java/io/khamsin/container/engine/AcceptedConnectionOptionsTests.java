package io.khamsin.container.engine;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The options of an accepted connection on every transport: Nagle off, and khamsin's pooled allocator, whatever
 * the transport's own defaults, without a socket option call per connection that the transport already made.
 */
@Timeout(60)
class AcceptedConnectionOptionsTests {

	private final HttpHandler handler = new TestRoutes(null).handler();

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "AUTO", "NIO" })
	void anAcceptedConnectionHasNagleOffAndThePooledAllocator(Transport transport) throws Exception {
		CompletableFuture<Channel> accepted = new CompletableFuture<>();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.transport(transport)
			.customizer((bootstrap) -> capture(bootstrap, accepted))
			.build(), this.handler);
		server.start();
		try (Socket client = new Socket("127.0.0.1", server.port())) {
			Channel channel = accepted.get(10, TimeUnit.SECONDS);
			assertThat(channel.config().getOption(ChannelOption.TCP_NODELAY)).isTrue();
			assertThat(channel.config().getAllocator()).isSameAs(PooledByteBufAllocator.DEFAULT);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			server.stop();
		}
	}

	private static void capture(ServerBootstrap bootstrap, CompletableFuture<Channel> accepted) {
		ChannelHandler khamsin = bootstrap.config().childHandler();
		bootstrap.childHandler(new ChannelInitializer<>() {

			@Override
			protected void initChannel(Channel channel) {
				accepted.complete(channel);
				channel.pipeline().addLast(khamsin);
			}

		});
	}

}
