package io.khamsin.container.http3;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.quic.QuicStreamChannel;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;

/**
 * The request streams of one HTTP/3 connection: what they share (the exchange stage, the connection they belong to,
 * the fixed responses), and the handler every request stream's channel starts with, which puts the stream's own
 * {@link Http3StreamHandler} in its place, or, once a graceful shutdown has sent {@code GOAWAY}, refuses the stream
 * with {@code H3_REQUEST_REJECTED} (RFC 9114, section 5.2) so that the client may retry it elsewhere.
 */
@ChannelHandler.Sharable
final class Http3Streams extends ChannelInboundHandlerAdapter {

	/** The name of a stream's handler in its channel's pipeline. */
	static final String HANDLER = "h3-stream";

	/** A request the server did not process (RFC 9114, section 8.1). */
	static final int H3_REQUEST_REJECTED = 0x10b;

	private final Http3Connection connection;

	private final ExchangeDispatcher dispatcher;

	private final Http3FixedResponses fixedResponses;

	private final HttpSettings settings;

	private final GuardCounters guards;

	Http3Streams(Http3Connection connection, ExchangeDispatcher dispatcher, Http3FixedResponses fixedResponses,
			HttpSettings settings, GuardCounters guards) {
		this.connection = connection;
		this.dispatcher = dispatcher;
		this.fixedResponses = fixedResponses;
		this.settings = settings;
		this.guards = guards;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
		if (!this.connection.streamOpened(stream)) {
			ctx.pipeline().remove(this);
			stream.shutdown(H3_REQUEST_REJECTED);
			return;
		}
		ctx.pipeline().replace(this, HANDLER, new Http3StreamHandler(this));
	}

	Http3Connection connection() {
		return this.connection;
	}

	ExchangeDispatcher dispatcher() {
		return this.dispatcher;
	}

	Http3FixedResponses fixedResponses() {
		return this.fixedResponses;
	}

	HttpSettings settings() {
		return this.settings;
	}

	GuardCounters guards() {
		return this.guards;
	}

}
