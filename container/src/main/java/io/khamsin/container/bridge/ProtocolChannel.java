package io.khamsin.container.bridge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;

/**
 * The protocol that carries one request, as Spring's request and response over Netty see it: the connection it
 * came on, the response's messages written in the protocol's framing, reading paused and resumed as the handler
 * takes the body, and the way out of HTTP after a {@code 101}. Implemented by the protocol's handler of a
 * connection (HTTP/1.1) or of a stream (HTTP/2), and by the exchange stage's taps in front of them; every method is
 * called on the channel's event loop.
 */
public interface ProtocolChannel extends InboundPublisher.ReadControl {

	/** @return the channel the request is carried on */
	Channel channel();

	/** @return what the connection knows about itself: protocol, scheme, TLS, addresses, egress */
	ConnectionInfo connection();

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
	 * Whether something in front of the protocol copies the response as it is written (the page cache storing it),
	 * so that a file body must pass through the JVM.
	 * @return {@code true} if it does
	 */
	default boolean copiesResponse() {
		return false;
	}

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
