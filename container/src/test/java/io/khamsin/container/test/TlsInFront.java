package io.khamsin.container.test;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;

import io.khamsin.container.KhamsinServerCustomizer;
import io.khamsin.container.tls.TlsHandlers;

/**
 * Puts the TLS handlers in front of a real {@code KhamsinServer}'s HTTP pipeline from the outside, as the
 * connection initializer will once TLS is wired in: the server's own child handler is kept and added after
 * {@link TlsHandlers#newHandler}.
 */
public final class TlsInFront implements KhamsinServerCustomizer {

	private final TlsHandlers tls;

	public TlsInFront(TlsHandlers tls) {
		this.tls = tls;
	}

	@Override
	public void customize(ServerBootstrap bootstrap) {
		ChannelHandler http = bootstrap.config().childHandler();
		bootstrap.childHandler(new ChannelInitializer<Channel>() {
			@Override
			protected void initChannel(Channel channel) {
				channel.pipeline().addLast(TlsHandlers.DETECTOR, TlsInFront.this.tls.newHandler(channel));
				channel.pipeline().addLast(http);
			}
		});
	}

}
