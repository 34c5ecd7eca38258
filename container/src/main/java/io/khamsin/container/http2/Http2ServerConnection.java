package io.khamsin.container.http2;

import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.engine.DrainEvent;
import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.ConnectionHandler;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.LingeringClose;

/**
 * What an HTTP/2 connection is to khamsin, as the last handler of its pipeline: the {@link ConnectionInfo} its
 * streams share (one object for the connection), the connection window raised to
 * {@code khamsin.http2.connection-window-size} after the preface, its timeouts (a client that sends no preface within
 * {@code khamsin.header-read-timeout}, a connection without open streams for {@code khamsin.idle-timeout}), and its
 * graceful shutdown: on a drain, GOAWAY with the last stream identifier the server took (RFC 9113, section 6.8), and
 * the close once those streams are done. The connection-level frames the codec passes on (SETTINGS, PING,
 * WINDOW_UPDATE, GOAWAY) are answered by the codec, and released here; so are the connection errors it answers.
 * <p>
 * The handler is its own timer task, one scheduled at a time.
 */
final class Http2ServerConnection extends ConnectionHandler implements Runnable {

	private static final Logger logger = LoggerFactory.getLogger(Http2ServerConnection.class);

	private final HttpSettings config;

	private final Http2Config http2;

	private final ServerFrameCodec codec;

	private final ReactorMetrics reactor;

	private final GuardCounters guards;

	private final Http2Connection.PropertyKey streamHandlers;

	private ChannelHandlerContext ctx;

	private ScheduledFuture<?> timer;

	private long idleSince;

	private boolean draining;

	Http2ServerConnection(HttpSettings config, Http2Config http2, ConnectionSecurity security, ServerFrameCodec codec,
			ReactorMetrics reactor, GuardCounters guards) {
		super(security);
		this.config = config;
		this.http2 = http2;
		this.codec = codec;
		this.reactor = reactor;
		this.guards = guards;
		this.streamHandlers = codec.connection().newKey();
	}

	/**
	 * Tell a stream's handler when its stream closes, even while its channel is not reading (Netty then holds the
	 * stream's last frames, the reset among them, until it reads).
	 * @param streamId the stream
	 * @param handler its handler
	 */
	void watch(int streamId, Http2StreamHandler handler) {
		Http2Stream stream = this.codec.connection().stream(streamId);
		if (stream != null) {
			stream.setProperty(this.streamHandlers, handler);
		}
	}

	/** @return the connection's codec */
	ServerFrameCodec codec() {
		return this.codec;
	}

	/** @return the figures of the connection's reactor */
	ReactorMetrics reactor() {
		return this.reactor;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		this.idleSince = System.nanoTime();
		this.codec.connection().addListener(new Http2ConnectionAdapter() {

			@Override
			public void onStreamClosed(Http2Stream stream) {
				Http2StreamHandler handler = stream.removeProperty(Http2ServerConnection.this.streamHandlers);
				if (handler != null) {
					handler.streamClosed();
				}
				streamClosed();
			}

		});
		int raise = this.http2.connectionWindowSize() - Http2Config.DEFAULT_INITIAL_WINDOW_SIZE;
		if (raise > 0) {
			ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(raise)).addListener((future) -> {
				if (!future.isSuccess()) {
					logger.debug("Could not raise the window of {}", ctx.channel(), future.cause());
				}
			});
		}
		schedule(Math.min(this.config.headerReadTimeout().toNanos(), this.config.idleTimeout().toNanos()));
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		cancelTimer();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		cancelTimer();
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		// SETTINGS, PING, WINDOW_UPDATE and GOAWAY frames of the connection, answered by the codec.
		ReferenceCountUtil.release(msg);
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		if (event instanceof DrainEvent) {
			drain();
			return;
		}
		ReferenceCountUtil.release(event);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (cause instanceof Http2Exception && !(cause instanceof Http2Exception.StreamException)) {
			// A connection error: the codec has sent GOAWAY and closes the connection; ConnectionGuards counted it.
			logger.debug("HTTP/2 connection {}: {}", ctx.channel(), cause.toString());
			return;
		}
		if (cause instanceof IOException) {
			logger.debug("Closing HTTP/2 connection {}: {}", ctx.channel(), cause.toString());
		}
		else {
			logger.warn("Closing HTTP/2 connection {} after an unexpected error", ctx.channel(), cause);
		}
		ctx.close();
	}

	private void drain() {
		if (this.draining) {
			return;
		}
		this.draining = true;
		Http2Connection connection = this.codec.connection();
		logger.debug("Draining HTTP/2 connection {}: GOAWAY after stream {}, {} stream(s) open", this.ctx.channel(),
				connection.remote().lastStreamCreated(), connection.numActiveStreams());
		this.ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
		if (connection.numActiveStreams() == 0) {
			closeDrained();
		}
	}

	/**
	 * Close a drained connection once what it wrote is out, in stages: the client may have sent streams the GOAWAY
	 * refused, and a close with their bytes unread would reset the connection and could destroy the GOAWAY that tells
	 * the client they were not processed (RFC 9113, section 6.8).
	 */
	private void closeDrained() {
		Channel channel = this.ctx.channel();
		this.ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((written) -> {
			if (written.isSuccess()) {
				LingeringClose.close(channel);
			}
			else {
				channel.close();
			}
		});
	}

	private void streamClosed() {
		if (this.codec.connection().numActiveStreams() == 0) {
			this.idleSince = System.nanoTime();
			if (this.draining) {
				// The last stream the GOAWAY let finish is done.
				closeDrained();
			}
		}
	}

	// Timeouts

	private void schedule(long delayNanos) {
		if (this.ctx.channel().isOpen()) {
			this.timer = this.ctx.executor().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
		}
	}

	private void cancelTimer() {
		if (this.timer != null) {
			this.timer.cancel(false);
			this.timer = null;
		}
	}

	/** The connection's timer fired. */
	@Override
	public void run() {
		this.timer = null;
		if (!this.ctx.channel().isActive()) {
			return;
		}
		if (!this.codec.decoder().prefaceReceived()) {
			this.guards.increment(Guard.HEADER_READ_TIMEOUT);
			logger.debug("No HTTP/2 preface from {} within khamsin.header-read-timeout ({}): closing",
					this.ctx.channel(), this.config.headerReadTimeout());
			this.ctx.close();
			return;
		}
		long idleTimeout = this.config.idleTimeout().toNanos();
		if (this.codec.connection().numActiveStreams() > 0) {
			schedule(idleTimeout);
			return;
		}
		long left = this.idleSince + idleTimeout - System.nanoTime();
		if (left > 0) {
			schedule(left);
			return;
		}
		this.guards.increment(Guard.IDLE_TIMEOUT);
		logger.debug("HTTP/2 connection {} idle for khamsin.idle-timeout ({}): GOAWAY and close", this.ctx.channel(),
				this.config.idleTimeout());
		this.ctx.close();
	}

	// ConnectionInfo

	@Override
	public Protocol protocol() {
		return Protocol.H2;
	}

	@Override
	protected Channel connectionChannel() {
		return this.ctx.channel();
	}

	@Override
	public boolean framed() {
		// A file body leaves in DATA frames, read into pooled buffers.
		return true;
	}

}
