package io.khamsin.container.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reactor serves its sockets while a burst of timers that came due together runs: a byte sent to an echo server
 * during 5,000 tasks of 0.1 ms each (half a second of tasks, as a burst of timeouts that each answer and close a
 * connection) comes back within a few of them, not after the whole burst. And heavy jobs that come together (100 of
 * 5 ms, as the signatures of ClientHellos that arrived together) run one per pass over the sockets of a reactor
 * that does little else, in order, while a reactor busy with other work gives them as much of its time as that work.
 */
class ReactorsTests {

	private static final int TASKS = 5_000;

	private static final long TASK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	private static final int HEAVY_JOBS = 100;

	private static final long HEAVY_JOB_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private static final long BUSY_PASS_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private static final int BURST_JOBS = 20;

	private static final long BURST_JOB_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void aBurstOfDueTasksDoesNotHoldTheReactorsSockets(Transport requested) throws Exception {
		withEchoingReactor(requested, (transport, reactor, out, in) -> {
			CountDownLatch burstBegan = new CountDownLatch(1);
			// Scheduled from the reactor itself, within a millisecond: due together, as the timeouts of connections
			// that came together.
			reactor.execute(() -> {
				for (int i = 0; i < TASKS; i++) {
					reactor.schedule(() -> {
						burstBegan.countDown();
						spin(TASK_NANOS);
					}, 20, TimeUnit.MILLISECONDS);
				}
			});
			assertThat(burstBegan.await(10, TimeUnit.SECONDS)).isTrue();
			long millis = echoMillis(out, in);
			// The whole burst is 500 ms; the reactor looks at its sockets after 64 tasks past its 1 ms quantum.
			assertThat(millis).as("echo during the burst on %s, in ms", transport.name()).isLessThan(100);
		});
	}

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void heavyJobsThatComeTogetherRunOnePerPassOverTheSockets(Transport requested) throws Exception {
		withEchoingReactor(requested, (transport, reactor, out, in) -> {
			List<Integer> ran = new ArrayList<>();
			CountDownLatch allRan = new CountDownLatch(HEAVY_JOBS);
			CountDownLatch secondRan = new CountDownLatch(1);
			reactor.execute(() -> {
				for (int i = 0; i < HEAVY_JOBS; i++) {
					int job = i;
					Reactors.runHeavy(reactor, () -> {
						ran.add(job);
						allRan.countDown();
						if (job == 1) {
							secondRan.countDown();
						}
						spin(HEAVY_JOB_NANOS);
					});
				}
			});
			assertThat(secondRan.await(10, TimeUnit.SECONDS)).isTrue();
			long millis = echoMillis(out, in);
			// The jobs are 500 ms in all; between two of them the reactor reads and echoes.
			assertThat(millis).as("echo during the heavy jobs on %s, in ms", transport.name()).isLessThan(100);
			assertThat(allRan.await(10, TimeUnit.SECONDS)).isTrue();
			reactor.submit(() -> assertThat(ran).hasSize(HEAVY_JOBS).isSorted()).sync();
		});
	}

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void aBusyReactorGivesHeavyJobsAsMuchOfItsTimeAsItsOtherWork(Transport requested) throws Exception {
		withEchoingReactor(requested, (transport, reactor, out, in) -> {
			// Other work of 20 ms in every pass, as a reactor serving many busy connections, and 20 heavy jobs of
			// 2 ms, as a burst of new TLS connections.
			AtomicInteger passes = new AtomicInteger();
			AtomicBoolean busy = new AtomicBoolean(true);
			Runnable work = new Runnable() {

				@Override
				public void run() {
					passes.incrementAndGet();
					spin(BUSY_PASS_NANOS);
					if (busy.get()) {
						// A timer due now is taken once per pass.
						reactor.schedule(this, 0, TimeUnit.NANOSECONDS);
					}
				}

			};
			List<Integer> ranInPass = new ArrayList<>();
			CountDownLatch allRan = new CountDownLatch(BURST_JOBS);
			reactor.execute(() -> reactor.schedule(work, 0, TimeUnit.NANOSECONDS));
			reactor.schedule(() -> {
				for (int i = 0; i < BURST_JOBS; i++) {
					Reactors.runHeavy(reactor, () -> {
						ranInPass.add(passes.get());
						spin(BURST_JOB_NANOS);
						allRan.countDown();
					});
				}
			}, 100, TimeUnit.MILLISECONDS);
			try {
				assertThat(allRan.await(10, TimeUnit.SECONDS)).isTrue();
			}
			finally {
				busy.set(false);
			}
			int first = ranInPass.get(0);
			int last = ranInPass.get(ranInPass.size() - 1);
			// One job a pass would take 20 passes; sharing the time, the first pass measured takes about ten.
			assertThat(last - first).as("passes the jobs took on %s", transport.name()).isLessThanOrEqualTo(5);
		});
	}

	@Test
	void offAReactorAHeavyJobRunsAtOnce() {
		List<String> ran = new ArrayList<>();
		Reactors.runHeavy(ImmediateEventExecutor.INSTANCE, () -> ran.add("first"));
		Reactors.runHeavy(ImmediateEventExecutor.INSTANCE, () -> ran.add("second"));
		assertThat(ran).containsExactly("first", "second");
	}

	/** Send one byte to the echoing reactor and wait for it: how long that took, in milliseconds. */
	private static long echoMillis(OutputStream out, InputStream in) throws IOException {
		long sent = System.nanoTime();
		out.write(2);
		assertThat(in.read()).isEqualTo(2);
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
	}

	/** Hold the calling thread for {@code nanos}, as work on the CPU would. */
	private static void spin(long nanos) {
		long until = System.nanoTime() + nanos;
		while (System.nanoTime() < until) {
			Thread.onSpinWait();
		}
	}

	/**
	 * Run {@code body} with one reactor on {@code requested} that echoes what a connected client sends, once the
	 * client's first byte came back.
	 */
	private static void withEchoingReactor(Transport requested, EchoBody body) throws Exception {
		ResolvedTransport transport = TransportResolver.resolve(requested, false, false);
		Reactors reactors = Reactors.create(1, new DefaultThreadFactory("reactors-test", true),
				transport.ioHandlerFactory());
		try {
			Channel server = echo(reactors, transport);
			try (Socket client = new Socket("127.0.0.1", ((InetSocketAddress) server.localAddress()).getPort())) {
				client.setTcpNoDelay(true);
				client.setSoTimeout(10_000);
				OutputStream out = client.getOutputStream();
				InputStream in = client.getInputStream();
				out.write(1);
				assertThat(in.read()).isEqualTo(1);
				body.run(transport, reactors.next(), out, in);
			}
			finally {
				server.close().sync();
			}
		}
		finally {
			reactors.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
		}
	}

	@FunctionalInterface
	private interface EchoBody {

		void run(ResolvedTransport transport, EventLoop reactor, OutputStream out, InputStream in) throws Exception;

	}

	private static Channel echo(Reactors reactors, ResolvedTransport transport) throws InterruptedException {
		return new ServerBootstrap().group(reactors)
			.channel(transport.serverChannelClass())
			.childHandler(new ChannelInitializer<>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
						@Override
						public void channelRead(ChannelHandlerContext ctx, Object msg) {
							ctx.writeAndFlush(msg);
						}
					});
				}
			})
			.bind(new InetSocketAddress("127.0.0.1", 0))
			.sync()
			.channel();
	}

}
