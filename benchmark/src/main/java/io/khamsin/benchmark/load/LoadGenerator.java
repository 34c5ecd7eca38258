package io.khamsin.benchmark.load;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The open-loop HTTP/1.1 load generator: one event-loop thread (the load core runs nothing else) sends requests on
 * a fixed schedule and records each answer's latency from its intended send time. Runs one {@link LoadSpec} at a
 * time; reuse one generator for a whole campaign so its own JIT warms up once.
 */
public final class LoadGenerator implements AutoCloseable {

	/**
	 * Whether the generator's event loop spins instead of sleeping in epoll_wait. On a virtual machine, waking a
	 * halted vCPU costs milliseconds now and then; a generator that sleeps between sends charges that to the
	 * server as latency (the intended send time is fixed). The load core runs nothing else, so it may spin.
	 */
	static final boolean BUSY_POLL = Boolean.parseBoolean(System.getProperty("khamsin.bench.busy-poll", "true"));

	/** Whether a run is in progress: the loop spins only then, and sleeps while wrk or a target has the core. */
	private volatile boolean running;

	private final EventLoopGroup group;

	private final Bootstrap bootstrap;

	public LoadGenerator() {
		this(PooledByteBufAllocator.DEFAULT);
	}

	/**
	 * A generator that reads with {@code allocator} (tests pass one outside Netty's leak detector, which at
	 * PARANOID would cost the generator more than the server it measures).
	 */
	public LoadGenerator(ByteBufAllocator allocator) {
		boolean epoll = Epoll.isAvailable();
		this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("load", true),
				epoll ? EpollIoHandler.newFactory(0, () -> this::selectStrategy) : NioIoHandler.newFactory());
		this.bootstrap = new Bootstrap().group(this.group)
			.channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
			.option(ChannelOption.TCP_NODELAY, true)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
			.option(ChannelOption.ALLOCATOR, allocator);
	}

	private int selectStrategy(io.netty.util.IntSupplier selectNow, boolean hasTasks) throws Exception {
		if (BUSY_POLL && this.running) {
			return SelectStrategy.BUSY_WAIT;
		}
		return hasTasks ? selectNow.get() : SelectStrategy.SELECT;
	}

	/**
	 * Run {@code spec} and wait for its result.
	 * @throws IllegalStateException if the keep-alive connections cannot be opened
	 */
	public LoadResult run(LoadSpec spec) {
		EventLoop loop = this.group.next();
		CompletableFuture<LoadResult> result = new CompletableFuture<>();
		this.running = true;
		loop.execute(() -> new LoadRun(spec, loop, this.bootstrap, result).start());
		long limit = spec.warmup().plus(spec.duration()).plus(spec.drainTimeout()).toMillis() + 30_000;
		try {
			return result.get(limit, TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause().getMessage(), ex.getCause());
		}
		catch (Exception ex) {
			throw new IllegalStateException("load run did not finish: " + ex, ex);
		}
		finally {
			this.running = false;
		}
	}

	/**
	 * Open {@code count} keep-alive connections, each answered once on {@code request}, and leave them idle.
	 * @return the open connections; close them to end them
	 */
	public IdleConnections openIdle(java.net.InetSocketAddress address, RequestTemplate request, int count) {
		return new IdleConnections(this.bootstrap, address, request, count);
	}

	@Override
	public void close() {
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

}
