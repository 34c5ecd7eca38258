package io.khamsin.container.exchange;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;

import io.khamsin.container.bridge.ProtocolChannel;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * What the exchange stage ({@link ExchangeDispatcher}, {@link HttpExchange}) needs from the protocol that carries a
 * request, beyond what Spring's request and response need of it ({@link ProtocolChannel}): the answers the stage
 * gives itself, each encoded as the protocol encodes it, refusals, the end of an exchange, and the figures of the
 * reactor. Implemented by the protocol handler of a connection (HTTP/1.1) or of a stream; every method is called on
 * the channel's event loop.
 */
public interface ExchangeChannel extends ProtocolChannel {

	/** @return the figures of the reactor the channel runs on */
	ReactorMetrics reactor();

	/**
	 * Answer the request with a fixed response, encoded as the protocol encodes it, and flush it.
	 * @param response the fixed response
	 * @param headRequest whether the request is a {@code HEAD} (no body)
	 * @param promise the promise of the write, or {@code null} when only the protocol may listen for its end
	 * @return the future of the write
	 */
	ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise);

	/**
	 * Answer the request from the page cache, encoded as the protocol encodes it, and flush it: HTTP/1.1 writes the
	 * representation's pre-encoded head and its body as bytes; HTTP/2 and HTTP/3 a {@code HEADERS} frame and the
	 * body in {@code DATA} frames. The hit's body belongs to the write from here on, written or not.
	 * @param hit the hit ({@code HEAD}: without a body)
	 * @param promise the promise of the last write, or {@code null} when only the protocol may listen for its end
	 * @return the future of the last write
	 */
	ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise);

	/**
	 * Answer the request with the page cache's {@code 304 Not Modified}, encoded as the protocol encodes it, and
	 * flush it.
	 * @param notModified the answer
	 * @param promise the promise of the write, or {@code null} when only the protocol may listen for its end
	 * @return the future of the write
	 */
	ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise);

	/**
	 * Refuse the request with an error status and no body, and end what can not go on: the connection for
	 * HTTP/1.1, the stream for HTTP/2.
	 * @param status the status
	 * @return the future of the response's write
	 */
	default ChannelFuture refuse(HttpResponseStatus status) {
		return refuse(status, null);
	}

	/**
	 * Refuse the request as {@link #refuse(HttpResponseStatus)} does, telling the client when to try again.
	 * @param status the status
	 * @param retryAfter the {@code Retry-After} header's value, or {@code null} for none
	 * @return the future of the response's write
	 */
	ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter);

	/**
	 * The exchange is over: the whole response was written and the handler completed (or the exchange stage
	 * answered the request itself). The protocol may start the next request.
	 * @param lastWrite the future of the response's last write
	 */
	void exchangeComplete(ChannelFuture lastWrite);

}
