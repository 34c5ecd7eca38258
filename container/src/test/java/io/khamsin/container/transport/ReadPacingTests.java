package io.khamsin.container.transport;

import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A paced connection reads once a reactor turn: the reads its handlers ask for (HTTP/2's codec asks at the end of
 * every read) reach the transport only when the reactor runs its tasks, and as one.
 */
class ReadPacingTests {

	private final AtomicInteger reads = new AtomicInteger();

	@Test
	void readsAskedDuringATurnReachTheTransportOnceWhenTheTasksRun() {
		EmbeddedChannel channel = new EmbeddedChannel();
		channel.pipeline().addLast(new ReadCounter(), new ReadPacing(), new AskingHandler());
		channel.runPendingTasks();
		this.reads.set(0);
		assertThat(channel.config().isAutoRead()).as("automatic reads are off while paced").isFalse();

		read(channel, 1);
		read(channel, 2);
		assertThat(this.reads).as("no read while the turn lasts").hasValue(0);
		channel.runPendingTasks();
		assertThat(this.reads).as("one read when the tasks run").hasValue(1);
		channel.runPendingTasks();
		assertThat(this.reads).hasValue(1);
		assertThat(channel.finishAndReleaseAll()).isTrue();
	}

	@Test
	void aClosedConnectionIsNotAskedToRead() {
		EmbeddedChannel channel = new EmbeddedChannel();
		channel.pipeline().addLast(new ReadCounter(), new ReadPacing(), new AskingHandler());
		channel.runPendingTasks();
		this.reads.set(0);
		read(channel, 1);
		// Closed as the transport closes it, without the tasks EmbeddedChannel.close() runs first.
		channel.unsafe().close(channel.voidPromise());
		channel.runPendingTasks();
		assertThat(this.reads).hasValue(0);
		channel.releaseInbound();
	}

	@Test
	void removedTheConnectionReadsByItselfAgain() {
		EmbeddedChannel channel = new EmbeddedChannel();
		channel.pipeline().addLast(ReadPacing.NAME, new ReadPacing());
		assertThat(channel.config().isAutoRead()).isFalse();
		channel.pipeline().remove(ReadPacing.NAME);
		assertThat(channel.config().isAutoRead()).isTrue();
		channel.finish();
	}

	/** A read of the transport, as a reactor delivers it: without running the tasks, as {@code writeInbound} would. */
	private static void read(EmbeddedChannel channel, int value) {
		channel.pipeline().fireChannelRead(Unpooled.wrappedBuffer(new byte[] { (byte) value }));
		channel.pipeline().fireChannelReadComplete();
	}

	/** Counts the reads that reach the transport. */
	private final class ReadCounter extends ChannelOutboundHandlerAdapter {

		@Override
		public void read(ChannelHandlerContext ctx) {
			ReadPacingTests.this.reads.incrementAndGet();
			ctx.read();
		}

	}

	/** As HTTP/2's codec: asks for a read at the end of every read, and keeps what it read for the test. */
	private static final class AskingHandler extends ChannelInboundHandlerAdapter {

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) {
			ctx.read();
			ctx.fireChannelReadComplete();
		}

	}

}
