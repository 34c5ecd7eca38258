package io.khamsin.container.cache;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.bridge.ExchangeChannel;

/**
 * The exchange channel of a background render: every message is shown to the ticket and released, and the render
 * never touches the connection it borrows its event loop from.
 */
final class DetachedExchangeChannel implements ExchangeChannel {

	private final Channel channel;

	private final Ticket ticket;

	DetachedExchangeChannel(Channel channel, Ticket ticket) {
		this.channel = channel;
		this.ticket = ticket;
	}

	@Override
	public Channel channel() {
		return this.channel;
	}

	@Override
	public void prepareHead(HttpResponse head, boolean streaming) {
	}

	@Override
	public ChannelFuture write(Object message, boolean flush) {
		try {
			if (message instanceof HttpResponse head) {
				this.ticket.onHead(head.status().code(), head.headers());
			}
			if (message instanceof HttpContent content) {
				this.ticket.onBody(content.content());
			}
			else if (message instanceof FileRegion) {
				this.ticket.abandon();
			}
		}
		finally {
			ReferenceCountUtil.release(message);
		}
		return this.channel.newSucceededFuture();
	}

	@Override
	public boolean fileRegionSupported() {
		return false;
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		this.ticket.complete();
	}

	@Override
	public void abort(Throwable cause) {
		this.ticket.abandon();
	}

	@Override
	public void pauseReading(boolean paused) {
	}

	@Override
	public void firstRequest() {
	}

}
