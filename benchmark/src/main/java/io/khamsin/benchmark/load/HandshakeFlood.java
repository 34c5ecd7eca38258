package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A TLS handshake flood, run as a process of its own (at low priority, beside the load generator): clients that
 * start handshakes and never finish them. Each connection sends one TLS 1.3 ClientHello, made once by the JDK's
 * client and replayed byte for byte, so that the attacker pays nothing per connection while the server pays a key
 * exchange and a signature for each. Two kinds at once:
 * <ul>
 * <li><em>abandoned</em>: {@code rate} new connections a second, each closed with a reset as soon as the server's
 * first flight (ServerHello to Finished) arrives, so every one costs the server its whole share of a handshake;
 * at most {@code rate} are left waiting for their first flight at once, beyond which a connection is skipped;</li>
 * <li><em>silent</em>: {@code silent} connections that send their ClientHello, read what comes and say nothing
 * more; each that the server closes (at its handshake timeout) is replaced by a new one.</li>
 * </ul>
 * Prints {@value #STARTED} once it floods, and one line of counts when done: {@code opened=.. first_flights=..
 * skipped=.. connect_failures=.. silent_opened=.. silent_closed_by_server=..}.
 *
 * <pre class="code">
 * java -cp ... io.khamsin.benchmark.load.HandshakeFlood HOST PORT RATE SILENT SECONDS
 * </pre>
 */
public final class HandshakeFlood implements AutoCloseable {

	/** The line printed once the flood has begun. */
	public static final String STARTED = "started";

	private final EventLoopGroup group;

	private final Bootstrap bootstrap;

	private final InetSocketAddress address;

	private final ByteBuf hello;

	private final AtomicLong opened = new AtomicLong();

	private final AtomicLong firstFlights = new AtomicLong();

	private final AtomicLong skipped = new AtomicLong();

	private final AtomicLong connectFailures = new AtomicLong();

	private final AtomicLong silentOpened = new AtomicLong();

	private final AtomicLong silentClosedByServer = new AtomicLong();

	private final AtomicLong waiting = new AtomicLong();

	private volatile boolean running = true;

	HandshakeFlood(InetSocketAddress address) {
		boolean epoll = Epoll.isAvailable();
		this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("flood", true),
				epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
		this.bootstrap = new Bootstrap().group(this.group)
			.channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
			.option(ChannelOption.TCP_NODELAY, true)
			// A reset rather than a FIN: the server's socket is gone at once, as with an attacker that drops it.
			.option(ChannelOption.SO_LINGER, 0)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000);
		this.address = address;
		this.hello = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(clientHello(address)));
	}

	/** The first record a JDK TLS 1.3 client sends to {@code address}: its ClientHello, with SNI and a key share. */
	static byte[] clientHello(InetSocketAddress address) {
		try {
			SSLContext context = SSLContext.getInstance("TLSv1.3");
			context.init(null, null, new SecureRandom());
			SSLEngine engine = context.createSSLEngine("localhost", address.getPort());
			engine.setUseClientMode(true);
			engine.setEnabledProtocols(new String[] { "TLSv1.3" });
			ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
			engine.beginHandshake();
			engine.wrap(ByteBuffer.allocate(0), out);
			out.flip();
			byte[] bytes = new byte[out.remaining()];
			out.get(bytes);
			return bytes;
		}
		catch (Exception ex) {
			throw new IllegalStateException("the JDK made no TLS 1.3 ClientHello: " + ex.getMessage(), ex);
		}
	}

	void start(int rate, int silent) {
		for (int i = 0; i < silent; i++) {
			openSilent();
		}
		if (rate > 0) {
			long startNanos = System.nanoTime();
			long[] started = { 0 };
			this.group.next().scheduleAtFixedRate(() -> {
				long due = (System.nanoTime() - startNanos) * rate / TimeUnit.SECONDS.toNanos(1);
				for (; started[0] < due && this.running; started[0]++) {
					if (this.waiting.get() >= rate) {
						this.skipped.incrementAndGet();
					}
					else {
						openAbandoned();
					}
				}
			}, 0, 1, TimeUnit.MILLISECONDS);
		}
	}

	private void openAbandoned() {
		this.opened.incrementAndGet();
		this.waiting.incrementAndGet();
		connect(new ChannelInboundHandlerAdapter() {

			private boolean answered;

			@Override
			public void channelRead(ChannelHandlerContext ctx, Object msg) {
				ReferenceCountUtil.release(msg);
				if (!this.answered) {
					this.answered = true;
					HandshakeFlood.this.firstFlights.incrementAndGet();
					ctx.close();
				}
			}

			@Override
			public void channelInactive(ChannelHandlerContext ctx) {
				HandshakeFlood.this.waiting.decrementAndGet();
			}

		}, true);
	}

	private void openSilent() {
		if (!this.running) {
			return;
		}
		this.silentOpened.incrementAndGet();
		connect(new ChannelInboundHandlerAdapter() {

			@Override
			public void channelRead(ChannelHandlerContext ctx, Object msg) {
				ReferenceCountUtil.release(msg);
			}

			@Override
			public void channelInactive(ChannelHandlerContext ctx) {
				if (HandshakeFlood.this.running) {
					HandshakeFlood.this.silentClosedByServer.incrementAndGet();
					openSilent();
				}
			}

		}, false);
	}

	private void connect(ChannelInboundHandlerAdapter handler, boolean abandoned) {
		ChannelFuture connect = this.bootstrap.clone().handler(handler).connect(this.address);
		connect.addListener((ChannelFuture future) -> {
			if (future.isSuccess()) {
				future.channel().writeAndFlush(this.hello.duplicate());
			}
			else {
				this.connectFailures.incrementAndGet();
				if (abandoned) {
					this.waiting.decrementAndGet();
				}
			}
		});
	}

	String counts() {
		return "opened=" + this.opened.get() + " first_flights=" + this.firstFlights.get() + " skipped="
				+ this.skipped.get() + " connect_failures=" + this.connectFailures.get() + " silent_opened="
				+ this.silentOpened.get() + " silent_closed_by_server=" + this.silentClosedByServer.get();
	}

	@Override
	public void close() {
		this.running = false;
		this.group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
	}

	public static void main(String[] args) throws InterruptedException {
		if (args.length != 5) {
			System.err.println("usage: HandshakeFlood HOST PORT RATE SILENT SECONDS");
			System.exit(2);
		}
		InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
		try (HandshakeFlood flood = new HandshakeFlood(address)) {
			flood.start(Integer.parseInt(args[2]), Integer.parseInt(args[3]));
			System.out.println(STARTED);
			System.out.flush();
			Thread.sleep(TimeUnit.SECONDS.toMillis(Long.parseLong(args[4])));
			flood.running = false;
			System.out.println(flood.counts());
		}
	}

}
