package io.khamsin.container.http1;

import java.io.IOException;
import java.util.Map;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.ConnectionHandler;
import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * What an HTTP/1.1 connection is, as the root of its {@link Http1ServerHandler}: the {@link ConnectionInfo} its
 * exchanges read (a {@link ConnectionHandler}, from the transport's {@link ConnectionSecurity} and the channel), the
 * figures of its reactor, how it leaves HTTP/1.1 after a {@code 101} ({@link ProtocolUpgrade}: the new protocol's
 * handlers take the codec's place), and what every layer of the handler reads: the server's context and configuration, the handler's channel context and its codec's, and
 * whether the connection closed.
 */
abstract class Http1Connection extends ConnectionHandler implements ProtocolUpgrade {

	// The category of the connection's handler: the one to turn on to follow what happens to a connection.
	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	final ServerContext context;

	final HttpSettings settings;

	final ReactorMetrics reactor;

	Http1ServerCodec codec;

	ChannelHandlerContext ctx;

	ChannelHandlerContext encoderCtx;

	boolean closed;

	Http1Connection(ServerContext context, ConnectionSecurity security, ReactorMetrics reactor) {
		super(security);
		this.context = context;
		this.settings = context.settings();
		this.reactor = reactor;
	}

	/**
	 * Set the codec in front of the handler, before the handler joins the pipeline.
	 * @param codec the codec
	 */
	final void codec(Http1ServerCodec codec) {
		this.codec = codec;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		this.encoderCtx = ctx.pipeline().context(this.codec);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (cause instanceof IOException) {
			logger.debug("Closing connection {}: {}", ctx.channel(), cause.toString());
		}
		else {
			logger.warn("Closing connection {} after an unexpected error", ctx.channel(), cause);
		}
		ctx.close();
	}

	/** @return the connection */
	public Channel channel() {
		return this.ctx.channel();
	}

	/** @return the figures of the connection's reactor */
	public ReactorMetrics reactor() {
		return this.reactor;
	}

	/**
	 * Count bytes read from the connection, as the codec hears of them.
	 * @param bytes how many
	 */
	public void bytesRead(int bytes) {
		this.reactor.bytesReceived(bytes);
	}

	/** @return what the connection is to its exchanges: this */
	public ConnectionInfo connection() {
		return this;
	}

	/** @return how the connection leaves HTTP/1.1 */
	public ProtocolUpgrade upgrade() {
		return this;
	}

	@Override
	public void switchTo(Map<String, ? extends ChannelHandler> handlers) {
		ChannelPipeline pipeline = this.ctx.pipeline();
		String after = this.encoderCtx.name();
		for (Map.Entry<String, ? extends ChannelHandler> handler : handlers.entrySet()) {
			pipeline.addAfter(after, handler.getKey(), handler.getValue());
			after = handler.getKey();
		}
		// Bytes the decoder still holds go on to the new protocol's first handler.
		pipeline.remove(this.codec);
	}

	@Override
	public Protocol protocol() {
		return Protocol.H1;
	}

	@Override
	protected Channel connectionChannel() {
		return this.ctx.channel();
	}

}
