package io.khamsin.container.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

import io.khamsin.container.engine.ServerContext;

/**
 * Assembles the HTTP/1.1 pipeline of a new connection.
 */
public final class Http1ChannelInitializer extends ChannelInitializer<Channel> {

	private final ServerContext context;

	public Http1ChannelInitializer(ServerContext context) {
		this.context = context;
	}

	@Override
	protected void initChannel(Channel channel) {
		throw new UnsupportedOperationException("being written");
	}

}
