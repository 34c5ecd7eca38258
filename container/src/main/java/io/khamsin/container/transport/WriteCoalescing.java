package io.khamsin.container.transport;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * Copies the small buffers a connection writes between two flushes into one, so that a flush leaves as one buffer
 * instead of one per frame part.
 * <p>
 * An HTTP/2 response is four buffers or more (the HEADERS frame's header and block, the DATA frame's header and
 * payload), and a connection's flush can carry a hundred responses. Netty's io_uring reactor gathers the buffers of
 * every connection's write into one shared array of I/O vectors, which takes at most 1,024 of them until the
 * reactor next submits to the kernel; a write that finds it full goes to the kernel with none, completes having
 * written nothing, and is tried again. On a connection with many streams, the bytes wait in its outbound buffer by
 * the ten thousand entries. Coalesced, a flush of small frames is one buffer, written with one {@code send}.
 * <p>
 * Buffers larger than {@link #SMALL} pass as they are (a copy would cost more than the vector it saves), after the
 * small ones before them; so do messages that are not buffers (file regions). Each write's promise completes when
 * the buffer it was copied into is written. Installed first in a connection's pipeline; {@link #install(Channel)}
 * does nothing on a transport other than io_uring.
 */
public final class WriteCoalescing extends ChannelOutboundHandlerAdapter {

	/** The name of the handler in the pipeline. */
	public static final String NAME = "write-coalescing";

	/** The largest buffer that is copied. */
	static final int SMALL = 1024;

	/** The size of a buffer small ones are copied into. */
	static final int BATCH = 16 * 1024;

	private ByteBuf batch;

	private final List<ChannelPromise> promises = new ArrayList<>();

	WriteCoalescing() {
	}

	/**
	 * Coalesce a connection's small writes, when it runs on io_uring.
	 * @param channel the connection, on its event loop
	 * @return whether its writes are now coalesced
	 */
	public static boolean install(Channel channel) {
		if (!(channel instanceof IoUringSocketChannel) || channel.pipeline().get(NAME) != null) {
			return false;
		}
		channel.pipeline().addFirst(NAME, new WriteCoalescing());
		return true;
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (!(msg instanceof ByteBuf buf) || buf.readableBytes() > SMALL) {
			writeBatch(ctx);
			ctx.write(msg, promise);
			return;
		}
		int length = buf.readableBytes();
		if (this.batch != null && this.batch.writableBytes() < length) {
			writeBatch(ctx);
		}
		if (this.batch == null) {
			this.batch = ctx.alloc().directBuffer(BATCH);
		}
		try {
			this.batch.writeBytes(buf, buf.readerIndex(), length);
		}
		finally {
			buf.release();
		}
		if (!promise.isVoid()) {
			this.promises.add(promise);
		}
	}

	@Override
	public void flush(ChannelHandlerContext ctx) {
		writeBatch(ctx);
		ctx.flush();
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		// Written, not flushed: the close fails it and releases it, as it would each write without this handler.
		writeBatch(ctx);
		ctx.close(promise);
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		writeBatch(ctx);
	}

	private void writeBatch(ChannelHandlerContext ctx) {
		ByteBuf written = this.batch;
		if (written == null) {
			return;
		}
		this.batch = null;
		if (this.promises.isEmpty()) {
			ctx.write(written, ctx.voidPromise());
			return;
		}
		ChannelPromise[] waiting = this.promises.toArray(new ChannelPromise[0]);
		this.promises.clear();
		ctx.write(written).addListener(new Completion(waiting));
	}

	private record Completion(ChannelPromise[] promises) implements ChannelFutureListener {

		@Override
		public void operationComplete(ChannelFuture future) {
			Throwable cause = future.cause();
			for (ChannelPromise promise : this.promises) {
				if (cause == null) {
					promise.trySuccess();
				}
				else {
					promise.tryFailure(cause);
				}
			}
		}

	}

}
