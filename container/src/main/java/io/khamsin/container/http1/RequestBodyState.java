package io.khamsin.container.http1;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The body of the request a connection is reading, as its head framed it (RFC 9112, section 6): announced by
 * {@code Content-Length} or chunked, how much of it arrived, whether it ended, and, once the exchange ended without
 * reading it all, the draining of the rest so that the connection can stay open. What is left to drain is bounded:
 * a client that sends more is cut off. One per connection, reset for each request.
 */
final class RequestBodyState {

	/** Unread request bytes that are read and dropped to keep a connection alive; more closes it. */
	static final long DISCARD_LIMIT = 64 * 1024;

	/** What draining a part of an unread body came to. */
	enum Drained {

		/** More of the body is to come. */
		MORE,

		/** The body ended: the connection may take its next request. */
		ENDED,

		/** More than {@link #DISCARD_LIMIT} was left unread: close the connection. */
		TOO_MUCH

	}

	private long contentLength;

	private boolean chunked;

	private long received;

	private boolean ended;

	private boolean draining;

	private long drainedFrom;

	/**
	 * A new request's head was read.
	 * @param request its head
	 */
	void start(HttpRequest request) {
		this.contentLength = HttpUtil.getContentLength(request, -1L);
		this.chunked = HttpUtil.isTransferEncodingChunked(request);
		this.received = 0;
		this.ended = false;
		this.draining = false;
	}

	/** @return the length the head announces, {@code 0} for none, {@code -1} when chunked */
	long announcedLength() {
		return this.chunked ? -1 : Math.max(0, this.contentLength);
	}

	/** @return whether the head announces a body (a length that is not zero, or chunks) */
	boolean expected() {
		return this.contentLength != 0 || this.chunked;
	}

	/** @return whether the head announces a body that has bytes to come */
	boolean expectsBytes() {
		return this.contentLength > 0 || this.chunked;
	}

	/** @return how many bytes of the body arrived */
	long received() {
		return this.received;
	}

	/** @return whether the whole body arrived */
	boolean ended() {
		return this.ended;
	}

	/** @return whether the rest of an unread body is being read and dropped */
	boolean draining() {
		return this.draining;
	}

	/**
	 * A part of the body arrived for the exchange.
	 * @param content the part
	 * @return whether it was the last
	 */
	boolean received(HttpContent content) {
		this.received += content.content().readableBytes();
		boolean last = content instanceof LastHttpContent;
		if (last) {
			this.ended = true;
		}
		return last;
	}

	/**
	 * Whether what is left of the body is small enough to read and drop after the response, so that the connection
	 * can stay open. A chunked body of unknown length is drained up to the limit after the response.
	 * @return {@code true} if it is
	 */
	boolean canBeDrained() {
		return this.ended || this.chunked || Math.max(0, this.contentLength) - this.received <= DISCARD_LIMIT;
	}

	/** The exchange ended before the body did: read and drop the rest from now on. */
	void startDraining() {
		this.draining = true;
		this.drainedFrom = this.received;
	}

	/**
	 * Account for a part of the body read while draining; the caller releases it.
	 * @param msg the part (or the next request's head, which ends nothing)
	 * @return what the draining came to
	 */
	Drained drain(Object msg) {
		if (msg instanceof HttpContent content) {
			this.received += content.content().readableBytes();
		}
		boolean last = msg instanceof LastHttpContent;
		if (this.received - this.drainedFrom > DISCARD_LIMIT && !last) {
			this.draining = false;
			return Drained.TOO_MUCH;
		}
		if (last) {
			this.draining = false;
			this.ended = true;
			return Drained.ENDED;
		}
		return Drained.MORE;
	}

}
