package io.khamsin.container.accesslog;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpRequest;

/**
 * One request for the access log: created on the event loop when its response is complete, it waits for the
 * response's last write and then joins the log's queue. It keeps the decoded request head, which nothing changes
 * once the request is served, so the line is formatted off the event loop.
 */
final class AccessLogEntry implements ChannelFutureListener {

	private final AccessLog log;

	private final HttpRequest request;

	private final SocketAddress remoteAddress;

	private final int status;

	private final String contentLength;

	private final long startNanos;

	private long durationNanos;

	private long receivedMillis;

	AccessLogEntry(AccessLog log, HttpRequest request, SocketAddress remoteAddress, int status,
			String contentLength, long startNanos) {
		this.log = log;
		this.request = request;
		this.remoteAddress = remoteAddress;
		this.status = status;
		this.contentLength = contentLength;
		this.startNanos = startNanos;
	}

	@Override
	public void operationComplete(ChannelFuture future) {
		this.durationNanos = System.nanoTime() - this.startNanos;
		this.receivedMillis = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(this.durationNanos);
		this.log.offer(this);
	}

	HttpRequest request() {
		return this.request;
	}

	SocketAddress remoteAddress() {
		return this.remoteAddress;
	}

	int status() {
		return this.status;
	}

	/** @return the response body's declared length, or {@code -1} when it was not declared */
	long bytes() {
		if (this.contentLength == null) {
			return -1;
		}
		try {
			return Long.parseLong(this.contentLength.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	long durationNanos() {
		return this.durationNanos;
	}

	long receivedMillis() {
		return this.receivedMillis;
	}

}
