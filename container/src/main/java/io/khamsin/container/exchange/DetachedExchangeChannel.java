package io.khamsin.container.exchange;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.Ticket;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The exchange channel of a background render: every message is shown to the ticket and released, and the render
 * never touches the connection it borrows its event loop from.
 */
final class DetachedExchangeChannel implements ExchangeChannel {

	private final ExchangeChannel origin;

	private final Channel channel;

	private final Ticket ticket;

	DetachedExchangeChannel(ExchangeChannel origin, Ticket ticket) {
		this.origin = origin;
		this.channel = origin.channel();
		this.ticket = ticket;
	}

	@Override
	public Channel channel() {
		return this.channel;
	}

	@Override
	public ConnectionInfo connection() {
		return this.origin.connection();
	}

	@Override
	public ReactorMetrics reactor() {
		return this.origin.reactor();
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		this.ticket.abandon();
		return this.channel.newSucceededFuture();
	}

	@Override
	public ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise) {
		hit.release();
		this.ticket.abandon();
		return this.channel.newSucceededFuture();
	}

	@Override
	public ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise) {
		this.ticket.abandon();
		return this.channel.newSucceededFuture();
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
		this.ticket.abandon();
		return this.channel.newSucceededFuture();
	}

	@Override
	public ProtocolUpgrade upgrade() {
		return null;
	}

	@Override
	public void prepareHead(HttpResponse head, boolean streaming) {
	}

	@Override
	public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
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
	public void exchangeComplete(ChannelFuture lastWrite) {
		this.ticket.complete();
	}

	@Override
	public void abort(Throwable cause) {
		this.ticket.abandon();
	}

	/** The render is written nowhere but into the ticket, which must see every byte of it. */
	@Override
	public boolean copiesResponse() {
		return true;
	}

	@Override
	public void pauseReading(boolean paused) {
	}

	@Override
	public void firstRequest() {
	}

}
