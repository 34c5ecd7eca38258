package io.khamsin.container.bridge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.HttpResponse;

/**
 * What an {@link HttpExchange} needs from the protocol that carries it. Implemented by the protocol handler of
 * a connection (HTTP/1.1) or of a stream; every method is called on the channel's event loop.
 */
public interface ExchangeChannel {

	/**
	 * The channel the exchange is carried on.
	 * @return the channel
	 */
	Channel channel();

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
	 * @return the future of the write
	 */
	ChannelFuture write(Object message, boolean flush);

	/**
	 * Whether file bodies may be written as a {@code FileRegion} (sendfile): a plain connection with no
	 * transformation of the bytes.
	 * @return {@code true} if zero-copy file egress is possible
	 */
	boolean fileRegionSupported();

	/**
	 * The request body now has buffered parts that nobody asked for ({@code paused}), or a subscriber wants
	 * more: stop or resume reading from the socket.
	 * @param paused whether reading should pause
	 */
	void pauseBodyReading(boolean paused);

	/**
	 * The handler asked for the request body for the first time (time to send {@code 100 Continue}).
	 */
	void bodyRequested();

	/**
	 * The exchange is over: the whole response was written and the handler completed. The protocol may start
	 * the next request.
	 * @param lastWrite the future of the response's last write
	 */
	void exchangeComplete(ChannelFuture lastWrite);

	/**
	 * The response can not be completed (an error after its head was written, or a failed write): close the
	 * connection or reset the stream.
	 * @param cause why
	 */
	void abort(Throwable cause);

}
