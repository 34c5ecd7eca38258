package io.khamsin.container.metrics;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpRequest;

import io.khamsin.container.accesslog.AccessLog;
import io.khamsin.container.bridge.HttpExchange;

/**
 * The figures of one connection, and its access log lines, kept by its protocol handler on the reactor's thread.
 * The latency clock of a request starts at the first byte of its head ({@link #headStarted()}) and stops when the
 * last write of its response completes ({@link #requestCompleted}). Pipelined requests keep their own start times
 * in arrival order, and write completions on a connection arrive in order, so two queues of longs hold everything
 * in flight: nothing is allocated per request. Each queue keeps its oldest entry in fields and creates a ring only
 * for the requests pipelined behind it, so that an idle connection which never pipelined holds no ring.
 * <p>
 * A protocol handler calls, in order: {@link #headStarted()} when bytes of a new request head arrive,
 * {@link #headReceived()} when the head is decoded, {@link #requestStarted()} when the request is dispatched,
 * {@link #requestCompleted} with the future of its last write, and {@link #connectionClosed()} once. A path that
 * answers without the Spring handler records the same way, under its own route and path, e.g. a fixed response:
 * {@code figures.requestCompleted(write, 200, Route.FIXED, RequestPath.FAST)}.
 */
public final class ConnectionFigures implements ChannelFutureListener {

	private final ReactorMetrics reactor;

	private final Protocol protocol;

	private final RouteTable routes;

	private final boolean enabled;

	private final AccessLog accessLog;

	private final boolean timed;

	private long headStart;

	// The oldest request decoded and not yet served: when its head started.
	private long waitingStart;

	private boolean waiting;

	private LongRing moreWaiting;

	// The oldest response whose last write is not complete: when its request started, and its latency key.
	private long writingStart;

	private int writingKey;

	private boolean writing;

	private LongRing moreWriting;

	private long currentStart;

	private int active;

	private boolean currentCompleted;

	private boolean closed;

	ConnectionFigures(ReactorMetrics reactor, Protocol protocol, RouteTable routes, AccessLog accessLog) {
		this.reactor = reactor;
		this.protocol = protocol;
		this.routes = routes;
		this.enabled = reactor.enabled();
		this.accessLog = accessLog;
		this.timed = this.enabled || accessLog != null;
		reactor.connectionAccepted();
	}

	/**
	 * Bytes were read from the connection.
	 * @param bytes how many
	 */
	public void bytesReceived(int bytes) {
		if (this.enabled) {
			this.reactor.add(ReactorMetrics.BYTES_RECEIVED, bytes);
		}
	}

	/**
	 * The first bytes of a request head arrived: start its clock.
	 */
	public void headStarted() {
		if (this.timed) {
			this.headStart = System.nanoTime();
		}
	}

	/**
	 * A request head was decoded; it may wait behind pipelined requests before it is dispatched.
	 */
	public void headReceived() {
		if (!this.timed) {
			return;
		}
		if (!this.waiting && (this.moreWaiting == null || this.moreWaiting.isEmpty())) {
			this.waitingStart = this.headStart;
			this.waiting = true;
		}
		else {
			if (this.moreWaiting == null) {
				this.moreWaiting = new LongRing(4);
			}
			this.moreWaiting.add(this.headStart);
		}
	}

	/**
	 * The request decoded first among those waiting is being served.
	 */
	public void requestStarted() {
		if (this.timed && !this.closed) {
			this.currentStart = nextWaitingStart();
			this.currentCompleted = false;
		}
		if (this.enabled && !this.closed) {
			this.active++;
			this.reactor.add(ReactorMetrics.REQUESTS_STARTED, 1);
		}
	}

	private long nextWaitingStart() {
		if (this.waiting) {
			this.waiting = false;
			return this.waitingStart;
		}
		if (this.moreWaiting != null && !this.moreWaiting.isEmpty()) {
			return this.moreWaiting.poll();
		}
		return System.nanoTime();
	}

	/**
	 * The exchange being served has written its whole response: record it under its status and route, on the
	 * handler path, and write its access log line; nothing if the request was recorded already (a fixed response
	 * records itself on the fast path).
	 * @param lastWrite the future of the response's last write
	 * @param exchange the exchange, or {@code null} for an answer the protocol gave itself
	 */
	public void requestCompleted(ChannelFuture lastWrite, HttpExchange exchange) {
		if (this.currentCompleted) {
			return;
		}
		int status = (exchange != null) ? exchange.status() : 200;
		requestCompleted(lastWrite, status, (exchange != null) ? exchange.route() : null, RequestPath.HANDLER);
		if (this.accessLog != null && exchange != null && lastWrite != null && !lastWrite.isVoid() && !this.closed) {
			this.accessLog.log(lastWrite, exchange.head(), lastWrite.channel().remoteAddress(), status,
					exchange.responseContentLength(), this.currentStart);
		}
	}

	/**
	 * Write the access log line of a response the protocol gave itself without an exchange (a fixed response, a
	 * refusal, the answer to {@code OPTIONS *}), once its write completes; nothing when the log is off.
	 * @param write the future of the response's write (not a void one)
	 * @param request the request head, or {@code null} when none could be read (a head that timed out, was too
	 * large or did not parse)
	 * @param status the status
	 * @param contentLength the response's {@code Content-Length}, or {@code null}
	 * @param served whether the request was served ({@link #requestStarted()}), so that its clock started then,
	 * rather than cut short while its head arrived
	 */
	public void logResponse(ChannelFuture write, HttpRequest request, int status, String contentLength,
			boolean served) {
		if (this.accessLog != null && !this.closed) {
			this.accessLog.log(write, request, write.channel().remoteAddress(), status, contentLength,
					served ? this.currentStart : this.headStart);
		}
	}

	/** @return whether the access log is written */
	public boolean logsAccess() {
		return this.accessLog != null;
	}

	/**
	 * Whether requests are timed or logged: then the last write of a response needs a future (not a void
	 * promise) to tell when its bytes have left.
	 * @return {@code true} if they are
	 */
	public boolean timed() {
		return this.timed;
	}

	/**
	 * The request being served has written its whole response; its latency is recorded when that last write
	 * completes (its last byte was handed to the kernel), and not at all if the write fails or has no promise to
	 * tell (a void promise: see {@link #timed()}).
	 * @param lastWrite the future of the response's last write
	 * @param status the response status
	 * @param route the route, or WebFlux's best matching pattern (a {@code PathPattern} or a string), or
	 * {@code null} for {@link Route#OTHER}
	 * @param path the path through the engine
	 */
	public void requestCompleted(ChannelFuture lastWrite, int status, Object route, RequestPath path) {
		if (!this.timed || this.closed || this.currentCompleted) {
			return;
		}
		this.currentCompleted = true;
		if (!this.enabled || this.active == 0) {
			return;
		}
		if (lastWrite == null) {
			requestEnded();
			return;
		}
		int key = LatencyKey.index(this.protocol, status, this.routes.resolve(route), path);
		if (lastWrite.isVoid()) {
			requestEnded();
			return;
		}
		if (!this.writing && (this.moreWriting == null || this.moreWriting.isEmpty())) {
			this.writingStart = this.currentStart;
			this.writingKey = key;
			this.writing = true;
		}
		else {
			if (this.moreWriting == null) {
				this.moreWriting = new LongRing(8);
			}
			this.moreWriting.add(this.currentStart);
			this.moreWriting.add(key);
		}
		lastWrite.addListener(this);
	}

	@Override
	public void operationComplete(ChannelFuture future) {
		if (this.closed) {
			return;
		}
		long start;
		int key;
		if (this.writing) {
			this.writing = false;
			start = this.writingStart;
			key = this.writingKey;
		}
		else if (this.moreWriting != null && !this.moreWriting.isEmpty()) {
			start = this.moreWriting.poll();
			key = (int) this.moreWriting.poll();
		}
		else {
			return;
		}
		if (future.isSuccess()) {
			this.reactor.recordLatency(key, System.nanoTime() - start);
		}
		requestEnded();
	}

	private void requestEnded() {
		this.active--;
		this.reactor.add(ReactorMetrics.REQUESTS_ENDED, 1);
	}

	/**
	 * The connection closed: requests still in flight end without a latency.
	 */
	public void connectionClosed() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.reactor.add(ReactorMetrics.CONNECTIONS_CLOSED, 1);
		if (this.active > 0) {
			this.reactor.add(ReactorMetrics.REQUESTS_ENDED, this.active);
			this.active = 0;
		}
	}

	/**
	 * A first-in first-out queue of longs that grows only when more requests are pipelined than ever before
	 * on the connection. Its capacity stays a power of two, so that positions wrap with a mask, not a division.
	 */
	private static final class LongRing {

		private long[] values;

		private int head;

		private int size;

		LongRing(int capacity) {
			this.values = new long[Integer.highestOneBit(Math.max(2, capacity - 1)) << 1];
		}

		boolean isEmpty() {
			return this.size == 0;
		}

		void add(long value) {
			int mask = this.values.length - 1;
			if (this.size == this.values.length) {
				long[] grown = new long[this.values.length * 2];
				for (int i = 0; i < this.size; i++) {
					grown[i] = this.values[(this.head + i) & mask];
				}
				this.values = grown;
				this.head = 0;
				mask = grown.length - 1;
			}
			this.values[(this.head + this.size) & mask] = value;
			this.size++;
		}

		long poll() {
			long value = this.values[this.head];
			this.head = (this.head + 1) & (this.values.length - 1);
			this.size--;
			return value;
		}

	}

}
