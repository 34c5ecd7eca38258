package io.khamsin.container.transport;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What leaves a connection whose writes are coalesced: the small buffers written between two flushes as one buffer,
 * in order, larger buffers and file regions as they are after the small ones before them, and each write's promise
 * done when the bytes it gave were written or failed.
 */
class WriteCoalescingTests {

	private final EmbeddedChannel channel = new EmbeddedChannel(new WriteCoalescing());

	@Test
	void smallWritesBetweenTwoFlushesLeaveAsOneBufferInOrder() {
		List<ChannelFuture> writes = new ArrayList<>();
		for (String part : List.of("frame-header|", "headers-block|", "data-header|", "Hello, World!")) {
			writes.add(this.channel.write(ascii(part)));
		}
		assertThat(this.channel.outboundMessages()).as("nothing leaves before the flush").isEmpty();
		assertThat(writes).noneMatch(ChannelFuture::isDone);
		this.channel.flush();
		assertThat(drain()).containsExactly("frame-header|headers-block|data-header|Hello, World!");
		assertThat(writes).allMatch(ChannelFuture::isSuccess);
	}

	@Test
	void aLargeBufferLeavesAsItIsAfterTheSmallOnesBeforeIt() {
		String large = "x".repeat(WriteCoalescing.SMALL + 1);
		this.channel.write(ascii("a"));
		this.channel.write(ascii("b"));
		ChannelFuture largeWrite = this.channel.write(ascii(large));
		this.channel.write(ascii("c"));
		this.channel.flush();
		assertThat(drain()).containsExactly("ab", large, "c");
		assertThat(largeWrite.isSuccess()).isTrue();
	}

	@Test
	void aBatchThatWouldOverflowLeavesBeforeTheNextSmallBuffer() {
		String part = "y".repeat(WriteCoalescing.SMALL);
		int perBatch = WriteCoalescing.BATCH / WriteCoalescing.SMALL;
		for (int i = 0; i <= perBatch; i++) {
			this.channel.write(ascii(part));
		}
		this.channel.flush();
		assertThat(drain()).containsExactly(part.repeat(perBatch), part);
	}

	@Test
	void aFileRegionLeavesAsItIsAfterTheSmallBuffersBeforeIt() throws Exception {
		java.nio.file.Path file = java.nio.file.Files.createTempFile("coalescing", ".bin");
		try {
			java.nio.file.Files.writeString(file, "file body");
			FileRegion region = new DefaultFileRegion(file.toFile(), 0, 9);
			this.channel.write(ascii("head|"));
			this.channel.write(region);
			this.channel.flush();
			ByteBuf first = this.channel.readOutbound();
			assertThat(first.toString(StandardCharsets.US_ASCII)).isEqualTo("head|");
			first.release();
			Object second = this.channel.readOutbound();
			assertThat(second).isSameAs(region);
			region.release();
		}
		finally {
			java.nio.file.Files.delete(file);
		}
	}

	@Test
	void writesNotFlushedWhenTheConnectionClosesFailAndAreReleased() {
		ChannelFuture first = this.channel.write(ascii("never"));
		ChannelFuture second = this.channel.write(ascii("sent"));
		this.channel.close();
		assertThat(first.cause()).isInstanceOf(ClosedChannelException.class);
		assertThat(second.cause()).isInstanceOf(ClosedChannelException.class);
		assertThat(this.channel.finish()).isFalse();
	}

	private List<String> drain() {
		List<String> left = new ArrayList<>();
		for (ByteBuf buf; (buf = this.channel.readOutbound()) != null;) {
			left.add(buf.toString(StandardCharsets.US_ASCII));
			buf.release();
		}
		return left;
	}

	private static ByteBuf ascii(String text) {
		return Unpooled.directBuffer().writeBytes(text.getBytes(StandardCharsets.US_ASCII));
	}

}
