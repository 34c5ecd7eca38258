package io.khamsin.container.transport;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Closes a connection in stages, as RFC 9112, section 9.6 asks of a server that closes while its client may still be
 * sending: TLS {@code close_notify}, then a half-close of the sending side once everything written is out, then
 * reading and discarding until the client closes its side, or for {@value #LINGER_MILLIS} ms at most. A connection
 * closed at once with bytes unread makes the kernel send a reset in place of the FIN, and the reset can destroy what
 * the client had not read yet: the last responses, or the HTTP/2 GOAWAY that tells which streams were not processed.
 */
public final class LingeringClose extends ChannelInboundHandlerAdapter {

	/** How long a half-closed connection waits for its client to close: the 2 s of Apache httpd's lingering close. */
	public static final long LINGER_MILLIS = 2_000;

	private static final String NAME = "lingering-close";

	private LingeringClose() {
	}

	/**
	 * Close a connection in stages. Call it once everything the connection is to send has been written (the last
	 * write's future is done), on its event loop; the connection closes at once if it is not a TCP one.
	 * @param channel the connection
	 */
	public static void close(Channel channel) {
		if (!(channel instanceof DuplexChannel duplex) || !channel.isActive() || duplex.isOutputShutdown()
				|| channel.pipeline().get(NAME) != null) {
			channel.close();
			return;
		}
		// First in the pipeline: what the client still sends is read and dropped before TLS or a codec sees it.
		ChannelHandlerContext first = channel.pipeline().addFirst(NAME, new LingeringClose()).context(NAME);
		channel.config().setOption(ChannelOption.AUTO_READ, true);
		ScheduledFuture<?> timeout = channel.eventLoop().schedule(() -> {
			channel.close();
		}, LINGER_MILLIS, TimeUnit.MILLISECONDS);
		channel.closeFuture().addListener((closed) -> timeout.cancel(false));
		SslHandler tls = channel.pipeline().get(SslHandler.class);
		if (tls != null && !tls.engine().isOutboundDone()) {
			tls.closeOutbound().addListener((sent) -> shutdownOutput(duplex, first));
		}
		else {
			shutdownOutput(duplex, first);
		}
	}

	private static void shutdownOutput(DuplexChannel channel, ChannelHandlerContext first) {
		// The empty write completes once every earlier write is out; a half-close before that would fail them.
		first.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((written) -> {
			if (written.isSuccess()) {
				channel.shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
			}
			else {
				channel.close();
			}
		});
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		ReferenceCountUtil.release(msg);
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		// Nothing behind this handler acts any more; the client closing its side ends the connection (one that does
		// not allow half-closure closes by itself).
		if (event instanceof ChannelInputShutdownEvent) {
			ctx.close();
		}
		ReferenceCountUtil.release(event);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		ctx.close();
	}

}
