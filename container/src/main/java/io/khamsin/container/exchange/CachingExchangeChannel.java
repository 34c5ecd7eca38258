package io.khamsin.container.exchange;


import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.cache.CachedHead;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.Ticket;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The page cache's tap on the bridge's response write path: an {@link ExchangeChannel} in front of the protocol's
 * that shows the ticket every head and body part the response writes, then passes them on unchanged. When the
 * exchange completes the ticket stores the response; when it aborts, or the connection closes before the whole
 * announced body was written, the ticket is abandoned. With stale-if-error, a 500, 502, 503 or 504 of the
 * application is replaced by the stale entry.
 * <p>
 * A request whose lookup is deferred (it waits for another request's render) gets a tap {@link #awaiting} its
 * ticket: it passes everything on until the lookup ends as a miss and {@link #attach} hands it one.
 * <p>
 * Protocol-neutral: HTTP/1.1 connections and HTTP/2 streams write the same Netty HTTP objects through it.
 */
public final class CachingExchangeChannel implements ExchangeChannel {

	private final ExchangeChannel delegate;

	private final ChannelFutureListener abandonOnClose = (future) -> connectionClosed();

	private Ticket ticket;

	private boolean replaced;

	private ChannelFuture replacedWrite;

	/**
	 * Tap a protocol's exchange channel.
	 * @param delegate the protocol's channel
	 * @param ticket the ticket of the miss
	 */
	public CachingExchangeChannel(ExchangeChannel delegate, Ticket ticket) {
		this(delegate);
		if (ticket == null) {
			throw new IllegalArgumentException("ticket must not be null");
		}
		attach(ticket);
	}

	private CachingExchangeChannel(ExchangeChannel delegate) {
		if (delegate == null) {
			throw new IllegalArgumentException("delegate must not be null");
		}
		this.delegate = delegate;
	}

	/**
	 * A tap for a request whose lookup has not ended: it passes everything on until {@link #attach} gives it the
	 * ticket of a miss.
	 * @param delegate the protocol's channel
	 * @return the tap
	 */
	public static CachingExchangeChannel awaiting(ExchangeChannel delegate) {
		return new CachingExchangeChannel(delegate);
	}

	/**
	 * The lookup ended as a miss: tap the response for its ticket from now on, before anything was written.
	 * @param ticket the ticket
	 */
	public void attach(Ticket ticket) {
		if (this.ticket != null) {
			throw new IllegalStateException("The tap already has a ticket");
		}
		this.ticket = ticket;
		Channel channel = this.delegate.channel();
		channel.closeFuture().addListener(this.abandonOnClose);
	}

	/**
	 * An exchange channel for a background render (stale-while-revalidate): its response is shown to the ticket and
	 * written nowhere.
	 * @param origin the exchange channel the request came on, for its event loop, allocator, connection and figures
	 * @param ticket the revalidation ticket
	 * @return the channel
	 */
	public static ExchangeChannel detached(ExchangeChannel origin, Ticket ticket) {
		return new DetachedExchangeChannel(origin, ticket);
	}

	/**
	 * The connection closed before the exchange completed: a response written whole (the client read its announced
	 * length and left) is stored; anything less is abandoned.
	 */
	private void connectionClosed() {
		Ticket ticket = this.ticket;
		if (ticket == null) {
			return;
		}
		if (ticket.isWrittenWhole()) {
			ticket.complete();
		}
		else {
			ticket.abandon();
		}
	}

	private void abandon() {
		Ticket ticket = this.ticket;
		if (ticket != null) {
			ticket.abandon();
		}
	}

	private boolean capturing() {
		Ticket ticket = this.ticket;
		return ticket != null && ticket.isCapturing();
	}

	@Override
	public Channel channel() {
		return this.delegate.channel();
	}

	@Override
	public void prepareHead(HttpResponse head, boolean streaming) {
		this.delegate.prepareHead(head, streaming);
	}

	@Override
	public ConnectionInfo connection() {
		return this.delegate.connection();
	}

	@Override
	public ReactorMetrics reactor() {
		return this.delegate.reactor();
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		abandon();
		return this.delegate.writeFixed(response, headRequest, promise);
	}

	@Override
	public ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise) {
		abandon();
		return this.delegate.writeHit(hit, promise);
	}

	@Override
	public ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise) {
		abandon();
		return this.delegate.writeNotModified(notModified, promise);
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
		abandon();
		return this.delegate.refuse(status, retryAfter);
	}

	@Override
	public ProtocolUpgrade upgrade() {
		return this.delegate.upgrade();
	}

	@Override
	public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
		if (this.replaced) {
			ReferenceCountUtil.release(message);
			return (message instanceof LastHttpContent) ? this.replacedWrite : channel().newSucceededFuture();
		}
		Ticket ticket = this.ticket;
		if (ticket == null) {
			return this.delegate.write(message, flush, promise);
		}
		if (message instanceof HttpResponse head) {
			int status = head.status().code();
			Lookup.Hit stale = (status >= 500) ? ticket.staleIfError(status) : null;
			if (stale != null) {
				ReferenceCountUtil.release(message);
				this.replaced = true;
				this.replacedWrite = this.delegate.write(fullResponse(stale), flush, promise);
				return (message instanceof LastHttpContent) ? this.replacedWrite : channel().newSucceededFuture();
			}
			ticket.onHead(status, head.headers());
		}
		if (message instanceof HttpContent content) {
			ticket.onBody(content.content());
		}
		else if (message instanceof FileRegion) {
			ticket.abandon();
		}
		return this.delegate.write(message, flush, promise);
	}

	private FullHttpResponse fullResponse(Lookup.Hit hit) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		CachedHead head = hit.representation().head();
		head.forEachHeader(headers::add);
		if (head.contentLength() >= 0) {
			headers.setInt(HttpHeaderNames.CONTENT_LENGTH, head.contentLength());
		}
		headers.set(HttpHeaderNames.AGE, hit.ageSeconds());
		ByteBuf body = (hit.body() != null) ? hit.body() : Unpooled.EMPTY_BUFFER;
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.valueOf(hit.entry().status()), body, headers, EmptyHttpHeaders.INSTANCE);
		this.delegate.prepareHead(response, false);
		return response;
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		Ticket ticket = this.ticket;
		if (ticket != null) {
			channel().closeFuture().removeListener(this.abandonOnClose);
			ticket.complete();
		}
		this.delegate.exchangeComplete(lastWrite);
	}

	@Override
	public void abort(Throwable cause) {
		Ticket ticket = this.ticket;
		if (ticket != null) {
			channel().closeFuture().removeListener(this.abandonOnClose);
			ticket.abandon();
		}
		this.delegate.abort(cause);
	}

	/** A file body the ticket stores is read, so that the ticket sees its bytes. */
	@Override
	public boolean copiesResponse() {
		return capturing() || this.delegate.copiesResponse();
	}

	@Override
	public void pauseReading(boolean paused) {
		this.delegate.pauseReading(paused);
	}

	@Override
	public void firstRequest() {
		this.delegate.firstRequest();
	}

}
