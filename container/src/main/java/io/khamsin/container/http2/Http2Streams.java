package io.khamsin.container.http2;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;

/**
 * The streams of one HTTP/2 connection: what they share (the exchange stage, the connection they belong to, the
 * fixed responses), and the handler every stream's channel starts with, which puts the stream's own
 * {@link Http2StreamHandler} in its place. Not a {@code ChannelInitializer}, which keeps a concurrent set of the
 * channels it initializes: one for every connection, touched by every stream.
 */
@ChannelHandler.Sharable
final class Http2Streams extends ChannelInboundHandlerAdapter {

	/** The name of a stream's handler in its channel's pipeline. */
	static final String HANDLER = "h2-stream";

	private final Http2ServerConnection connection;

	private final ExchangeDispatcher dispatcher;

	private final Http2FixedResponses fixedResponses;

	private final HttpSettings config;

	private final GuardCounters guards;

	Http2Streams(Http2ServerConnection connection, ExchangeDispatcher dispatcher, Http2FixedResponses fixedResponses,
			HttpSettings config, GuardCounters guards) {
		this.connection = connection;
		this.dispatcher = dispatcher;
		this.fixedResponses = fixedResponses;
		this.config = config;
		this.guards = guards;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		// A write that fails because the client reset the stream must not close the stream's channel: Netty would
		// then reset the stream, already closed, with CANCEL. The channel closes as the stream does.
		ctx.channel().config().setAutoClose(false);
		ctx.pipeline().replace(this, HANDLER, new Http2StreamHandler(this));
	}

	Http2ServerConnection connection() {
		return this.connection;
	}

	ExchangeDispatcher dispatcher() {
		return this.dispatcher;
	}

	Http2FixedResponses fixedResponses() {
		return this.fixedResponses;
	}

	HttpSettings config() {
		return this.config;
	}

	GuardCounters guards() {
		return this.guards;
	}

}
