package io.khamsin.container.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * Asks for a connection's next read from its reactor's task queue rather than as soon as a read completes, so that
 * a reactor reads each paced connection at most once a turn and runs its queued tasks in between.
 * <p>
 * Netty's io_uring reactor handles completions in passes, and as long as a pass finds new completions it takes
 * another, up to 128 passes in one turn, before it runs any task. On a connection that always has more to read, a
 * read that completes arms the next at once, so under load one turn lasts seconds. Everything an HTTP/2 connection
 * leaves to a task then waits: the end of each stream's channel is such a task, so closed streams pile up by the
 * ten thousand (measured with h2load, 64 connections of 100 streams: up to about 100,000 stream channels alive where
 * at most 6,400 requests were open; about 4,000 paced), and the collector takes the reactor's time. Paced, the
 * io_uring reactor takes the turns epoll's does, which reads each ready connection once a turn: read what is there
 * on every connection, answer it, run the tasks, read again. A read a later handler asks for (HTTP/2's codec asks
 * at the end of every read) waits for the tasks too.
 * <p>
 * Installed first in a connection's pipeline and removed with it; the connection's automatic reads are off while
 * it is installed. Only io_uring needs it: {@link #install(Channel)} does nothing on another transport.
 */
public final class ReadPacing extends ChannelDuplexHandler implements Runnable {

	/** The name of the handler in the pipeline. */
	public static final String NAME = "read-pacing";

	private ChannelHandlerContext ctx;

	private boolean readAsked;

	ReadPacing() {
	}

	/**
	 * Pace a connection's reads, when it runs on io_uring.
	 * @param channel the connection, on its event loop
	 * @return whether its reads are now paced
	 */
	public static boolean install(Channel channel) {
		if (!(channel instanceof IoUringSocketChannel) || channel.pipeline().get(NAME) != null) {
			return false;
		}
		channel.pipeline().addFirst(NAME, new ReadPacing());
		return true;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		ctx.channel().config().setAutoRead(false);
		// A read still in flight completes, and its end asks for the next; one asked here covers a connection that
		// had none in flight.
		askForRead();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		if (ctx.channel().isActive()) {
			ctx.channel().config().setAutoRead(true);
		}
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		ctx.fireChannelReadComplete();
		askForRead();
	}

	/** A read asked for by a handler after this one (HTTP/2's codec asks at the end of every read) waits its turn. */
	@Override
	public void read(ChannelHandlerContext ctx) {
		askForRead();
	}

	private void askForRead() {
		if (!this.readAsked) {
			this.readAsked = true;
			this.ctx.executor().execute(this);
		}
	}

	/** Read again, from the reactor's task queue. */
	@Override
	public void run() {
		this.readAsked = false;
		if (this.ctx.channel().isActive() && !this.ctx.isRemoved()) {
			this.ctx.read();
		}
	}

}
