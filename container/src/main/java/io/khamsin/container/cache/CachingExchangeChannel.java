package io.khamsin.container.cache;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
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

import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ExchangeChannel;
import io.khamsin.container.bridge.FixedResponseTable;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The page cache's tap on the bridge's response write path: an {@link ExchangeChannel} in front of the protocol's
 * that shows the ticket every head and body part the response writes, then passes them on unchanged. When the
 * exchange completes the ticket stores the response; when it aborts, or the connection closes first, the ticket
 * is abandoned. With stale-if-error, a 500, 502, 503 or 504 of the application is replaced by the stale entry.
 * <p>
 * Protocol-neutral: HTTP/1.1 connections and HTTP/2 streams write the same Netty HTTP objects through it.
 */
public final class CachingExchangeChannel implements ExchangeChannel {

	private final ExchangeChannel delegate;

	private final Ticket ticket;

	private final ChannelFutureListener abandonOnClose;

	private boolean replaced;

	private ChannelFuture replacedWrite;

	/**
	 * Tap a protocol's exchange channel.
	 * @param delegate the protocol's channel
	 * @param ticket the ticket of the miss
	 */
	public CachingExchangeChannel(ExchangeChannel delegate, Ticket ticket) {
		if (delegate == null || ticket == null) {
			throw new IllegalArgumentException("delegate and ticket must not be null");
		}
		this.delegate = delegate;
		this.ticket = ticket;
		this.abandonOnClose = (future) -> ticket.abandon();
		delegate.channel().closeFuture().addListener(this.abandonOnClose);
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
		ConnectionInfo connection = this.delegate.connection();
		return new ConnectionInfo() {

			@Override
			public Protocol protocol() {
				return connection.protocol();
			}

			@Override
			public String scheme() {
				return connection.scheme();
			}

			@Override
			public SslInfo sslInfo() {
				return connection.sslInfo();
			}

			@Override
			public InetSocketAddress remoteAddress() {
				return connection.remoteAddress();
			}

			@Override
			public InetSocketAddress localAddress() {
				return connection.localAddress();
			}

			@Override
			public boolean zeroCopyFiles() {
				// A file body the ticket would store is read in chunks it can copy.
				return !CachingExchangeChannel.this.ticket.isCapturing() && connection.zeroCopyFiles();
			}

		};
	}

	@Override
	public ReactorMetrics reactor() {
		return this.delegate.reactor();
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		this.ticket.abandon();
		return this.delegate.writeFixed(response, headRequest, promise);
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status) {
		this.ticket.abandon();
		return this.delegate.refuse(status);
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
		if (message instanceof HttpResponse head) {
			int status = head.status().code();
			Lookup.Hit stale = (status >= 500) ? this.ticket.staleIfError(status) : null;
			if (stale != null) {
				ReferenceCountUtil.release(message);
				this.replaced = true;
				this.replacedWrite = this.delegate.write(fullResponse(stale), flush, promise);
				return (message instanceof LastHttpContent) ? this.replacedWrite : channel().newSucceededFuture();
			}
			this.ticket.onHead(status, head.headers());
		}
		if (message instanceof HttpContent content) {
			this.ticket.onBody(content.content());
		}
		else if (message instanceof FileRegion) {
			this.ticket.abandon();
		}
		return this.delegate.write(message, flush, promise);
	}

	private FullHttpResponse fullResponse(Lookup.Hit hit) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		hit.entry().forEachHeader(hit.representation().coding(), headers::add);
		headers.setInt(HttpHeaderNames.CONTENT_LENGTH, hit.representation().length());
		headers.set(HttpHeaderNames.AGE, hit.ageSeconds());
		ByteBuf body = (hit.body() != null) ? hit.body() : Unpooled.EMPTY_BUFFER;
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.valueOf(hit.entry().status()), body, headers, EmptyHttpHeaders.INSTANCE);
		this.delegate.prepareHead(response, false);
		return response;
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		channel().closeFuture().removeListener(this.abandonOnClose);
		this.ticket.complete();
		this.delegate.exchangeComplete(lastWrite);
	}

	@Override
	public void abort(Throwable cause) {
		channel().closeFuture().removeListener(this.abandonOnClose);
		this.ticket.abandon();
		this.delegate.abort(cause);
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
