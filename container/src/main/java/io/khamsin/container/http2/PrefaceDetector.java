package io.khamsin.container.http2;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.DrainEvent;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.ProtocolInitializer;

/**
 * The first handler of a connection to a plain listener that offers h2c, until its first bytes choose its protocol
 * (see {@link CleartextSelector}); then it leaves the pipeline, the bytes going on to the chosen protocol's first
 * handler. A client that sends nothing is closed after {@code khamsin.idle-timeout}, as HTTP/1.1 closes one. Only a
 * first read shorter than the preface that starts like it is kept, up to the preface's 24 bytes.
 */
final class PrefaceDetector extends ChannelInboundHandlerAdapter implements Runnable {

	private static final Logger logger = LoggerFactory.getLogger(PrefaceDetector.class);

	private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SWITCHING_PROTOCOLS = ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
			+ "Upgrade: " + Http2Initializer.CLEARTEXT + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

	private final CleartextSelector selector;

	private ChannelHandlerContext ctx;

	private ByteBuf received;

	private ScheduledFuture<?> timer;

	PrefaceDetector(CleartextSelector selector) {
		this.selector = selector;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		this.timer = ctx.executor().schedule(this, this.selector.settings().idleTimeout().toNanos(), TimeUnit.NANOSECONDS);
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		stop();
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		stop();
		ctx.fireChannelInactive();
	}

	private void stop() {
		if (this.timer != null) {
			this.timer.cancel(false);
			this.timer = null;
		}
		if (this.received != null) {
			this.received.release();
			this.received = null;
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (!(msg instanceof ByteBuf bytes)) {
			ReferenceCountUtil.release(msg);
			return;
		}
		ByteBuf in = bytes;
		if (this.received != null) {
			in = this.received.writeBytes(bytes);
			bytes.release();
			this.received = null;
		}
		int matched = matchedPreface(in);
		if (matched == PREFACE.length) {
			this.selector.reactor(ctx.channel()).bytesReceived(PREFACE.length);
			choose(in, this.selector.http2());
		}
		else if (matched == in.readableBytes()) {
			// The start of a preface, or of something else: wait for the rest of the preface.
			if (in == bytes) {
				this.received = ctx.alloc().buffer(PREFACE.length).writeBytes(bytes);
				bytes.release();
			}
			else {
				this.received = in;
			}
		}
		else {
			H2cUpgradeRequest upgrade = H2cUpgradeRequest.read(in, this.selector.settings());
			if (upgrade != null) {
				upgrade(in, upgrade);
			}
			else {
				choose(in, this.selector.http1());
			}
		}
	}

	private void choose(ByteBuf in, ProtocolInitializer protocol) {
		stop();
		// The protocol's handlers join behind this one, which then leaves: the bytes go on to the first of them.
		protocol.initialize(this.ctx.channel(), ConnectionSecurity.PLAIN);
		this.ctx.pipeline().remove(this);
		this.ctx.fireChannelRead(in);
	}

	private void upgrade(ByteBuf in, H2cUpgradeRequest upgrade) {
		stop();
		this.selector.reactor(this.ctx.channel()).bytesReceived(upgrade.headLength());
		in.skipBytes(upgrade.headLength());
		// The 101 goes first, the server's preface (written as the codec joins) after it.
		this.ctx.write(Unpooled.wrappedBuffer(SWITCHING_PROTOCOLS));
		try {
			this.selector.http2().upgrade(this.ctx.channel(), upgrade.settings(), upgrade.request());
		}
		catch (Exception ex) {
			logger.debug("Could not take {} to h2c after its 101: {}", this.ctx.channel(), ex.toString());
			in.release();
			this.ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
			return;
		}
		this.ctx.pipeline().remove(this);
		if (in.isReadable()) {
			// The client's preface, sent before it read the 101.
			this.ctx.fireChannelRead(in);
		}
		else {
			in.release();
		}
		this.ctx.flush();
	}

	private static int matchedPreface(ByteBuf in) {
		int length = Math.min(in.readableBytes(), PREFACE.length);
		int start = in.readerIndex();
		for (int i = 0; i < length; i++) {
			if (in.getByte(start + i) != PREFACE[i]) {
				return i;
			}
		}
		return length;
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		if (event instanceof DrainEvent) {
			// Nothing to finish: close, as an idle HTTP/1.1 connection does.
			ctx.close();
			return;
		}
		ctx.fireUserEventTriggered(event);
	}

	/** No byte came within the idle timeout. */
	@Override
	public void run() {
		this.timer = null;
		if (this.ctx.channel().isActive()) {
			this.selector.guards().increment(Guard.IDLE_TIMEOUT);
			logger.debug("Closing {}: nothing received within khamsin.idle-timeout", this.ctx.channel());
			this.ctx.close();
		}
	}

}
