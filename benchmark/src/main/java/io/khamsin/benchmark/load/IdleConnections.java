package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Many keep-alive connections that each made one request and then stay open and idle: what the {@code idle-10k}
 * scenario holds open while it weighs the server.
 */
public final class IdleConnections implements AutoCloseable {

	private static final int CONNECTS_AT_ONCE = 256;

	private final List<Channel> channels = new ArrayList<>();

	private final AtomicInteger answered = new AtomicInteger();

	private final AtomicInteger failed = new AtomicInteger();

	IdleConnections(Bootstrap bootstrap, InetSocketAddress address, RequestTemplate request, int count) {
		ByteBuf encoded = request.encode(address.getHostString() + ":" + address.getPort());
		try {
			for (int done = 0; done < count; done += CONNECTS_AT_ONCE) {
				int batch = Math.min(CONNECTS_AT_ONCE, count - done);
				CountDownLatch latch = new CountDownLatch(batch);
				for (int i = 0; i < batch; i++) {
					ChannelFuture connect = bootstrap.clone().handler(new OneAnswer(latch)).connect(address);
					connect.addListener((ChannelFuture future) -> {
						if (future.isSuccess()) {
							future.channel().writeAndFlush(encoded.retainedDuplicate());
						}
						else {
							this.failed.incrementAndGet();
							latch.countDown();
						}
					});
					synchronized (this.channels) {
						this.channels.add(connect.channel());
					}
				}
				if (!latch.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("connections were not answered within 30 s");
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		finally {
			encoded.release();
		}
	}

	/** @return connections whose request was answered and that are still open */
	public int open() {
		int open = 0;
		synchronized (this.channels) {
			for (Channel channel : this.channels) {
				if (channel.isActive()) {
					open++;
				}
			}
		}
		return Math.min(open, this.answered.get());
	}

	/** @return connections that could not be opened or were not answered */
	public int failed() {
		return this.failed.get();
	}

	@Override
	public void close() {
		synchronized (this.channels) {
			for (Channel channel : this.channels) {
				channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
			}
			this.channels.clear();
		}
	}

	private final class OneAnswer extends ChannelInboundHandlerAdapter {

		private final CountDownLatch latch;

		private final ResponseParser parser;

		private boolean counted;

		OneAnswer(CountDownLatch latch) {
			this.latch = latch;
			this.parser = new ResponseParser((status, bytes, close) -> {
				if (status == 200) {
					IdleConnections.this.answered.incrementAndGet();
				}
				else {
					IdleConnections.this.failed.incrementAndGet();
				}
				count();
			});
		}

		private void count() {
			if (!this.counted) {
				this.counted = true;
				this.latch.countDown();
			}
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			ByteBuf in = (ByteBuf) msg;
			try {
				this.parser.parse(in);
			}
			finally {
				in.release();
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			if (!this.counted) {
				IdleConnections.this.failed.incrementAndGet();
			}
			count();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

}
