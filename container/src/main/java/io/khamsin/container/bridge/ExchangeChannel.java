package io.khamsin.container.bridge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

import io.khamsin.container.cache.Lookup;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.fixed.FixedResponseTable;

/**
 * What the exchange stage ({@link ExchangeDispatcher}, {@link HttpExchange}) needs from the protocol that carries a
 * request. Implemented by the protocol handler of a connection (HTTP/1.1) or of a stream; every method is called on
 * the channel's event loop.
 */
public interface ExchangeChannel extends InboundPublisher.ReadControl {

	/** @return the channel the exchange is carried on */
	Channel channel();

	/** @return what the connection knows about itself: protocol, scheme, TLS, addresses, egress */
	ConnectionInfo connection();

	/** @return the figures of the reactor the channel runs on */
	ReactorMetrics reactor();

	/**
	 * Complete the head of a response before it is written: {@code Date}, {@code Server}, connection
	 * management and body framing.
	 * @param head the response head
	 * @param streaming whether the body follows in parts of unknown total length
	 */
	void prepareHead(HttpResponse head, boolean streaming);

	/**
	 * Write a message of the response; {@code flush} asks for it to reach the socket soon (the protocol may
	 * wait for the end of the current read batch).
	 * @param message an {@code HttpObject} or a {@code FileRegion}
	 * @param flush whether to flush
	 * @param promise the promise of the write, or {@code null} for a new one
	 * @return the future of the write
	 */
	ChannelFuture write(Object message, boolean flush, ChannelPromise promise);

	/**
	 * Write a message of the response with a new promise.
	 * @param message an {@code HttpObject} or a {@code FileRegion}
	 * @param flush whether to flush
	 * @return the future of the write
	 */
	default ChannelFuture write(Object message, boolean flush) {
		return write(message, flush, null);
	}

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
	 * entry's pre-encoded head and its body as bytes ({@code cache.Http1HitWriter}); HTTP/2 and HTTP/3 a
	 * {@code HEADERS} frame from {@code cache.Http2HitHeaders} and the body in {@code DATA} frames. The hit's body
	 * belongs to the write from here on, written or not.
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
	ChannelFuture refuse(HttpResponseStatus status);

	/**
	 * The exchange is over: the whole response was written and the handler completed (or the exchange stage
	 * answered the request itself). The protocol may start the next request.
	 * @param lastWrite the future of the response's last write
	 */
	void exchangeComplete(ChannelFuture lastWrite);

	/**
	 * How the connection leaves HTTP after a {@code 101}, for a protocol that can switch.
	 * @return the upgrade, or {@code null} when the protocol can not switch (HTTP/2, HTTP/3)
	 */
	ProtocolUpgrade upgrade();

	/**
	 * The response can not be completed (an error after its head was written, or a failed write): close the
	 * connection or reset the stream.
	 * @param cause why
	 */
	void abort(Throwable cause);

}
