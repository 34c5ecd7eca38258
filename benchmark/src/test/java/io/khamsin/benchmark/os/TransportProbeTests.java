package io.khamsin.benchmark.os;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transport a server runs on, read from its descriptors: a child JVM opens an event loop of each kind in turn,
 * and the probe, reading the child's /proc as a campaign reads a target's, names each.
 */
class TransportProbeTests {

	@Test
	void anIoUringEventLoopIsSeenAsIoUring() throws Exception {
		Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available here: "
				+ IoUring.unavailabilityCause());
		assertThat(probeWith("io_uring")).isEqualTo(TransportProbe.IO_URING);
	}

	@Test
	void nettysNativeEpollIsToldFromTheJdkSelector() throws Exception {
		Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll is not available here: " + Epoll.unavailabilityCause());
		assertThat(probeWith("epoll")).isEqualTo(TransportProbe.EPOLL);
		assertThat(probeWith("nio")).isEqualTo(TransportProbe.NIO);
	}

	@Test
	void theDecisionGoesByRingsThenTimersThenEpollInstances() {
		assertThat(TransportProbe.classify(4, 4, 4, true)).isEqualTo(TransportProbe.IO_URING);
		assertThat(TransportProbe.classify(0, 4, 4, true)).isEqualTo(TransportProbe.EPOLL);
		assertThat(TransportProbe.classify(0, 1, 0, true)).isEqualTo(TransportProbe.NIO);
		assertThat(TransportProbe.classify(0, 1, 0, false)).isEqualTo(TransportProbe.EPOLL);
		assertThat(TransportProbe.classify(0, 0, 0, true)).isEqualTo(TransportProbe.UNKNOWN);
	}

	/** What the probe says of a JVM that runs one event loop of {@code kind}. */
	private static String probeWith(String kind) throws Exception {
		Process child = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
			.toString(), "-cp", System.getProperty("java.class.path"), EventLoopOf.class.getName(), kind)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			String ready = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream())).readLine();
			assertThat(ready).isEqualTo("ready");
			return TransportProbe.of(child.pid(), true);
		}
		finally {
			child.getOutputStream().close();
			child.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
			child.destroyForcibly();
		}
	}

	/** A JVM with one event loop of the kind its argument names, until its standard input closes. */
	public static final class EventLoopOf {

		public static void main(String[] args) throws Exception {
			IoHandlerFactory factory = switch (args[0]) {
				case "io_uring" -> IoUringIoHandler.newFactory();
				case "epoll" -> EpollIoHandler.newFactory();
				default -> NioIoHandler.newFactory();
			};
			EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, factory);
			group.submit(() -> { }).sync();
			System.out.println("ready");
			System.out.flush();
			while (System.in.read() >= 0) {
				// until the test closes our standard input
			}
			group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync();
		}

	}

}
