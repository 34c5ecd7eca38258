package io.khamsin.container.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection closed while its client is still sending, with bytes the server has not read: closed in stages, the
 * client reads the whole response and then the end of the stream, not a reset, and the connection closes once the
 * client closes its side.
 */
@Timeout(30)
class LingeringCloseTests {

	private static final String RESPONSE = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final CompletableFuture<Channel> accepted = new CompletableFuture<>();

	@AfterEach
	void stop() {
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
	}

	@Test
	void aClientStillSendingReadsTheWholeResponseAndThenTheEnd() throws Exception {
		try (Socket client = connect(LingeringClose::close)) {
			assertThat(read(client.getInputStream(), RESPONSE.length())).isEqualTo(RESPONSE);
			assertThat(client.getInputStream().read()).isEqualTo(-1);
			client.close();
			assertThat(this.accepted.get(5, TimeUnit.SECONDS).closeFuture().await(5, TimeUnit.SECONDS)).isTrue();
		}
	}

	/**
	 * Connect to a server that reads the first bytes, stops reading, answers and then closes as told, while the client
	 * sends 32 KB more that the server has not read.
	 */
	private Socket connect(Consumer<Channel> close) throws Exception {
		Channel listener = new ServerBootstrap().group(this.group)
			.channel(NioServerSocketChannel.class)
			.childHandler(new ChannelInboundHandlerAdapter() {

				private boolean answered;

				@Override
				public void channelRead(ChannelHandlerContext ctx, Object msg) {
					((ByteBuf) msg).release();
					if (this.answered) {
						return;
					}
					this.answered = true;
					ctx.channel().config().setAutoRead(false);
					LingeringCloseTests.this.accepted.complete(ctx.channel());
				}

			})
			.bind(InetAddress.getLoopbackAddress(), 0)
			.sync()
			.channel();
		Socket client = new Socket();
		client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
				((InetSocketAddress) listener.localAddress()).getPort()));
		OutputStream out = client.getOutputStream();
		out.write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		Channel channel = this.accepted.get(5, TimeUnit.SECONDS);
		out.write(new byte[32 * 1024]);
		out.flush();
		channel.eventLoop()
			.submit(() -> channel.writeAndFlush(Unpooled.copiedBuffer(RESPONSE, StandardCharsets.US_ASCII))
				.addListener((written) -> close.accept(channel)))
			.sync();
		listener.close().sync();
		return client;
	}

	private static String read(InputStream in, int length) throws IOException {
		return new String(in.readNBytes(length), StandardCharsets.US_ASCII);
	}

}
