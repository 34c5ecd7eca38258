package io.khamsin.benchmark.testserver;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import io.khamsin.benchmark.target.TlsFiles;

/**
 * A server for the instrument's own tests, on one thread, with a known behaviour: it answers every request head
 * with one fixed response after a fixed service time, one request at a time across all connections (a
 * single-server queue, so its capacity is exactly {@code 1 / serviceTime}), and can stall once. It reads heads only
 * (request bodies must not contain an empty line) and allocates outside Netty's leak detector, so that its cost
 * stays far below the capacities the tests set even with the detector at PARANOID.
 */
public final class FakeServer implements AutoCloseable {

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel listener;

	private final ByteBuf response;

	private final long serviceNanos;

	private final long stallAtRequest;

	private final long stallNanos;

	private final AtomicLong requests = new AtomicLong();

	private long busyUntil;

	private FakeServer(int status, String body, String contentType, long serviceNanos, long stallAtRequest,
			long stallNanos) {
		this(status, body, contentType, serviceNanos, stallAtRequest, stallNanos, null);
	}

	private FakeServer(int status, String body, String contentType, long serviceNanos, long stallAtRequest,
			long stallNanos, SslContext tls) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		String head = "HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\nContent-Length: "
				+ bytes.length + "\r\n\r\n";
		this.response = Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(
				Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII)), Unpooled.wrappedBuffer(bytes)));
		this.serviceNanos = serviceNanos;
		this.stallAtRequest = stallAtRequest;
		this.stallNanos = stallNanos;
		UnpooledByteBufAllocator untracked = new UnpooledByteBufAllocator(false, true);
		this.listener = new ServerBootstrap().group(this.group)
			.channel(NioServerSocketChannel.class)
			.childOption(ChannelOption.ALLOCATOR, untracked)
			.childHandler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					if (tls != null) {
						channel.pipeline().addLast(tls.newHandler(channel.alloc()));
					}
					channel.pipeline().addLast(new Handler());
				}
			})
			.bind("127.0.0.1", 0)
			.syncUninterruptibly()
			.channel();
	}

	/** A server that answers at once. */
	public static FakeServer answering(String body, String contentType) {
		return new FakeServer(200, body, contentType, 0, -1, 0);
	}

	/**
	 * A server that answers at once over TLS (TLS 1.3 and 1.2, with session tickets, on BoringSSL when it loads),
	 * serving the certificate {@code files}.
	 */
	public static FakeServer overTls(String body, String contentType, TlsFiles files) {
		try {
			SslContext context = SslContextBuilder.forServer(files.certificate().toFile(), files.privateKey().toFile())
				.sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK)
				.protocols("TLSv1.3", "TLSv1.2")
				.build();
			return new FakeServer(200, body, contentType, 0, -1, 0, context);
		}
		catch (javax.net.ssl.SSLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A server that answers at once with {@code status}. */
	public static FakeServer answering(int status, String body, String contentType) {
		return new FakeServer(status, body, contentType, 0, -1, 0);
	}

	/** A server whose capacity is {@code requestsPerSecond}. */
	public static FakeServer withCapacity(String body, double requestsPerSecond) {
		return new FakeServer(200, body, "text/plain", (long) (1e9 / requestsPerSecond), -1, 0);
	}

	/** A server that answers at once, except that request number {@code at} (from 1) holds everything up. */
	public static FakeServer stallingOnce(String body, long at, long stallMillis) {
		return new FakeServer(200, body, "text/plain", 0, at, TimeUnit.MILLISECONDS.toNanos(stallMillis));
	}

	public InetSocketAddress address() {
		return (InetSocketAddress) this.listener.localAddress();
	}

	public long requests() {
		return this.requests.get();
	}

	@Override
	public void close() {
		this.listener.close().syncUninterruptibly();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	private final class Handler extends ChannelInboundHandlerAdapter {

		private int matched;

		private boolean close;

		private final StringBuilder head = new StringBuilder();

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			ByteBuf in = (ByteBuf) msg;
			byte[] bytes = new byte[in.readableBytes()];
			in.readBytes(bytes);
			in.release();
			for (byte b : bytes) {
				this.head.append((char) b);
				boolean cr = (this.matched % 2 == 0) ? b == '\r' : b == '\n';
				this.matched = cr ? this.matched + 1 : ((b == '\r') ? 1 : 0);
				if (this.matched == 4) {
					this.matched = 0;
					this.close = this.head.toString().toLowerCase().contains("connection: close");
					this.head.setLength(0);
					request(ctx, this.close);
				}
			}
		}

		private void request(ChannelHandlerContext ctx, boolean close) {
			long number = FakeServer.this.requests.incrementAndGet();
			long now = System.nanoTime();
			long service = FakeServer.this.serviceNanos
					+ ((number == FakeServer.this.stallAtRequest) ? FakeServer.this.stallNanos : 0);
			FakeServer.this.busyUntil = Math.max(now, FakeServer.this.busyUntil) + service;
			long delay = FakeServer.this.busyUntil - now;
			if (delay <= 0) {
				respond(ctx, close);
			}
			else {
				ctx.executor().schedule(() -> respond(ctx, close), delay, TimeUnit.NANOSECONDS);
			}
		}

		private void respond(ChannelHandlerContext ctx, boolean close) {
			ByteBuf bytes = FakeServer.this.response.duplicate();
			if (close) {
				ctx.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE);
			}
			else {
				ctx.writeAndFlush(bytes);
			}
		}

	}

}
