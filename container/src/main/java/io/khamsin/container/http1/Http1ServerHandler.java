package io.khamsin.container.http1;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.engine.DrainEvent;
import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ConnectionHandler;
import io.khamsin.container.exchange.ExchangeChannel;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.exchange.HttpExchange;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.LingeringClose;

/**
 * The HTTP/1.1 state machine of one connection (RFC 9112): one request at a time, pipelined requests queued
 * and answered in order, keep-alive, {@code Expect: 100-continue} answered when the handler first asks for the
 * body, the connection's guards (idle, head and body timeouts, the size of a head), and graceful draining. Each
 * decoded request head goes to the {@link ExchangeDispatcher}, the exchange stage shared by every protocol, which
 * answers it, refuses it or makes its exchange; this handler carries the exchange ({@link ExchangeChannel}) and is
 * what the connection is to it ({@link ConnectionHandler}). It is made of parts of its own: its timeouts
 * ({@link ConnectionTimer}), the queue of pipelined requests ({@link PipelinedRequests}), the way out of HTTP after
 * a {@code 101} ({@link Http1Upgrade}), and the responses it writes itself ({@link ServerResponses},
 * {@link Http1FixedResponses}, {@link Http1HitWriter}).
 * <p>
 * Responses written while a read batch is being processed are flushed once when the batch ends.
 */
final class Http1ServerHandler extends ConnectionHandler
		implements ExchangeChannel, Http1ServerCodec.Listener, ConnectionTimer.Expiry, PipelinedRequests.Receiver {

	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	/**
	 * How long after it became idle a connection is still taken to be sending its next request when a graceful
	 * shutdown begins (see {@link #closeIdleWhenDrained()}).
	 */
	static final long DRAIN_IDLE_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private final ServerContext context;

	private final HttpSettings settings;

	private final ReactorMetrics reactor;

	private final ExchangeDispatcher dispatcher;

	private final Http1FixedResponses fixedResponses;

	private final ConnectionTimer timer;

	private final PipelinedRequests pipelined;

	private final RequestBodyState body = new RequestBodyState();

	private Http1ServerCodec codec;

	private ChannelHandlerContext ctx;

	private ChannelHandlerContext encoderCtx;

	private boolean closed;

	private HttpExchange exchange;

	private long headStart;

	private long sequence;

	private boolean inRequest;

	private boolean receivingHead;

	private boolean http10;

	private boolean keepAlive;

	private boolean closing;

	private boolean draining;

	private boolean continueExpected;

	private boolean inRead;

	private boolean flushPending;

	/** When the connection last became idle: its start, or the end of its last exchange. */
	private long idleSince;

	Http1ServerHandler(ServerContext context, ConnectionTimer.Limits timeouts, ExchangeDispatcher dispatcher,
			Http1FixedResponses fixedResponses, ConnectionSecurity security, Channel channel) {
		super(security);
		this.context = context;
		this.settings = context.settings();
		this.reactor = context.metrics().reactor(channel.eventLoop());
		this.dispatcher = dispatcher;
		this.fixedResponses = fixedResponses;
		this.timer = new ConnectionTimer(timeouts, this, channel.eventLoop());
		this.pipelined = new PipelinedRequests(this, channel);
	}

	/**
	 * Set the codec in front of the handler, before the handler joins the pipeline.
	 * @param codec the codec
	 */
	void codec(Http1ServerCodec codec) {
		this.codec = codec;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		this.encoderCtx = ctx.pipeline().context(this.codec);
		this.idleSince = System.nanoTime();
	}

	@Override
	public void channelActive(ChannelHandlerContext ctx) {
		this.timer.timeIdle();
		ctx.fireChannelActive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (cause instanceof IOException) {
			logger.debug("Closing connection {}: {}", ctx.channel(), cause.toString());
		}
		else {
			logger.warn("Closing connection {} after an unexpected error", ctx.channel(), cause);
		}
		ctx.close();
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		this.closed = true;
		this.timer.cancel();
		HttpExchange exchange = this.exchange;
		this.exchange = null;
		if (exchange != null) {
			exchange.cancel();
		}
		this.pipelined.releasePending();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		this.pipelined.releasePending();
	}

	// What the connection is to its exchanges

	@Override
	public Channel channel() {
		return this.ctx.channel();
	}

	@Override
	protected Channel connectionChannel() {
		return this.ctx.channel();
	}

	@Override
	public Protocol protocol() {
		return Protocol.H1;
	}

	@Override
	public ConnectionInfo connection() {
		return this;
	}

	@Override
	public ReactorMetrics reactor() {
		return this.reactor;
	}

	@Override
	public ProtocolUpgrade upgrade() {
		return new Http1Upgrade(this.ctx.pipeline(), this.codec);
	}

	// Inbound

	@Override
	public void bytesReceived() {
		if (!this.inRequest) {
			if (!this.receivingHead && this.dispatcher.timed()) {
				this.headStart = System.nanoTime();
			}
			this.receivingHead = true;
		}
	}

	@Override
	public void bytesRead(int bytes) {
		this.reactor.bytesReceived(bytes);
	}

	@Override
	public void closeAfterResponse() {
		this.closing = true;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		this.inRead = true;
		if (this.closed) {
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpRequest) {
			this.inRequest = true;
			this.receivingHead = false;
			if (this.dispatcher.timed()) {
				this.pipelined.headDecoded(this.headStart);
			}
		}
		if (msg instanceof LastHttpContent) {
			this.inRequest = false;
		}
		if (this.body.draining()) {
			discard(msg);
			this.pipelined.processPending();
		}
		else if (this.pipelined.mustWait()) {
			this.pipelined.enqueue(msg);
		}
		else {
			dispatch(msg);
		}
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		this.inRead = false;
		if (this.receivingHead && this.exchange == null && !this.body.draining() && !this.timer.isTimingHead()) {
			// Part of a request head arrived and the rest did not come with it: time the rest.
			this.timer.timeHead();
		}
		if (this.flushPending) {
			this.flushPending = false;
			ctx.flush();
		}
		ctx.fireChannelReadComplete();
	}

	@Override
	public boolean isAnswering() {
		return this.exchange != null && this.body.ended();
	}

	@Override
	public void handOver(Object msg) {
		if (this.body.draining()) {
			discard(msg);
		}
		else {
			dispatch(msg);
		}
	}

	private void dispatch(Object msg) {
		if (msg instanceof HttpContent content && !(msg instanceof HttpRequest) && content.decoderResult().isFailure()) {
			refuseBody(content);
			return;
		}
		if (msg instanceof HttpRequest request) {
			onRequest(request);
			if (msg instanceof HttpContent && this.exchange == null) {
				ReferenceCountUtil.release(msg);
				return;
			}
		}
		if (msg instanceof HttpContent content) {
			onContent(content);
		}
		else if (!(msg instanceof HttpRequest)) {
			ReferenceCountUtil.release(msg);
		}
	}

	private void onRequest(HttpRequest request) {
		long start = this.dispatcher.timed() ? this.pipelined.takeStart() : 0;
		if (request.decoderResult().isFailure()) {
			// The decoder's stand-in for a head it could not read names no request of the client's.
			refuseHead(ServerResponses.refuseMalformed(request.decoderResult().cause(), this.context.guards()), null,
					start);
			return;
		}
		if (request.protocolVersion().majorVersion() != 1) {
			refuseHead(ServerResponses.refuseVersion(request, this.context.guards()), request, start);
			return;
		}
		HttpResponseStatus refusal = RequestHeadChecks.refusal(request, this.context.guards());
		if (refusal != null) {
			refuseHead(refusal, request, start);
			return;
		}
		this.sequence++;
		this.http10 = request.protocolVersion().equals(HttpVersion.HTTP_1_0);
		this.keepAlive = HttpUtil.isKeepAlive(request);
		this.body.start(request);
		this.continueExpected = false;
		HttpExchange exchange = this.dispatcher.dispatch(this, request, this.body.announcedLength(), start,
				this.sequence);
		if (exchange == null) {
			return;
		}
		this.continueExpected = HttpUtil.is100ContinueExpected(request);
		this.exchange = exchange;
		if (this.body.expected()) {
			this.timer.timeBody();
		}
		else {
			this.timer.disarm();
		}
		exchange.start();
	}

	private void onContent(HttpContent content) {
		HttpExchange exchange = this.exchange;
		if (exchange == null) {
			content.release();
			return;
		}
		int bytes = content.content().readableBytes();
		this.timer.bodyReceived(this.body.received(content), bytes);
		HttpResponseStatus refusal = exchange.onContent(content);
		if (refusal != null) {
			failExchange(exchange, refusal, new IOException("Request body exceeds the limit of "
					+ this.settings.maxRequestBodySize() + " bytes"));
		}
	}

	private void discard(Object msg) {
		if (msg instanceof HttpContent content && content.decoderResult().isFailure()) {
			// The decoder reads nothing more on this connection; the response went out already.
			ReferenceCountUtil.release(msg);
			abort(content.decoderResult().cause());
			return;
		}
		RequestBodyState.Drained drained = this.body.drain(msg);
		ReferenceCountUtil.release(msg);
		if (drained == RequestBodyState.Drained.TOO_MUCH) {
			logger.debug("Closing {}: more than {} bytes of an unread request body", this.ctx.channel(),
					RequestBodyState.DISCARD_LIMIT);
			this.ctx.close();
		}
		else if (drained == RequestBodyState.Drained.ENDED) {
			afterExchange();
		}
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		if (event instanceof DrainEvent) {
			this.draining = true;
			this.closing = true;
			if (isIdle()) {
				closeIdleWhenDrained();
			}
			return;
		}
		ctx.fireUserEventTriggered(event);
	}

	private boolean isIdle() {
		return this.exchange == null && !this.receivingHead && !this.body.draining();
	}

	/**
	 * Close an idle connection for a graceful shutdown. An HTTP/1.1 server has no way to tell a client to stop but to
	 * close, and a client answered a moment ago, or connected a moment ago, is most likely writing its next request
	 * now: closed under it, that request is lost without a word. Such a connection is given until
	 * {@link #DRAIN_IDLE_GRACE_NANOS} after it became idle, and a request that comes meanwhile is answered with
	 * {@code Connection: close}; one idle for longer closes at once. Either way it closes in stages, so that a request
	 * already on its way does not turn the close into a reset.
	 */
	private void closeIdleWhenDrained() {
		long left = this.idleSince + DRAIN_IDLE_GRACE_NANOS - System.nanoTime();
		if (left > 0) {
			this.ctx.executor().schedule(() -> {
				if (!this.closed && isIdle()) {
					LingeringClose.close(this.ctx.channel());
				}
			}, left, TimeUnit.NANOSECONDS);
			return;
		}
		LingeringClose.close(this.ctx.channel());
	}

	@Override
	public void channelWritabilityChanged(ChannelHandlerContext ctx) {
		if (this.exchange != null) {
			this.exchange.onWritabilityChanged();
		}
		ctx.fireChannelWritabilityChanged();
	}

	// ExchangeChannel

	@Override
	public void prepareHead(HttpResponse head, boolean streaming) {
		HttpHeaders headers = head.headers();
		this.settings.stamp(headers);
		boolean close = this.closing || !this.keepAlive || this.draining || !this.body.canBeDrained();
		if (streaming && !headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
			if (this.http10) {
				close = true;
			}
			else {
				HttpUtil.setTransferEncodingChunked(head, true);
			}
		}
		if (close) {
			this.closing = true;
			headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		}
		else if (this.http10) {
			headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
		}
	}

	@Override
	public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
		ChannelFuture future = this.ctx.write(message, (promise != null) ? promise : this.ctx.newPromise());
		if (flush) {
			flush();
		}
		return future;
	}

	private void flush() {
		if (this.inRead) {
			this.flushPending = true;
		}
		else {
			this.ctx.flush();
		}
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		boolean close = answeredDirectly();
		ChannelFuture future = this.fixedResponses.write(this.encoderCtx, response, headRequest, close,
				this.http10 && !close, directPromise(promise, close));
		flush();
		return future;
	}

	@Override
	public ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise) {
		boolean close = answeredDirectly();
		ChannelFuture future = Http1HitWriter.write(this.encoderCtx, hit, close, this.http10 && !close,
				directPromise(promise, close));
		flush();
		return future;
	}

	@Override
	public ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise) {
		boolean close = answeredDirectly();
		ChannelFuture future = Http1HitWriter.write(this.encoderCtx, notModified, close, this.http10 && !close,
				directPromise(promise, close));
		flush();
		return future;
	}

	/**
	 * A response is about to be written as bytes past the encoder (a fixed response, a page-cache answer).
	 * @return whether the connection closes after it
	 */
	private boolean answeredDirectly() {
		boolean close = this.closing || !this.keepAlive || this.draining;
		this.closing = close;
		this.codec.responseWrittenDirectly();
		return close;
	}

	private ChannelPromise directPromise(ChannelPromise promise, boolean close) {
		// Only a write that is listened to needs a promise: one that closes, or one the exchange stage times.
		return (promise != null) ? promise : close ? this.encoderCtx.newPromise() : this.encoderCtx.voidPromise();
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
		this.closing = true;
		// Nothing more is read: what the decoder still makes of the bytes (or of the close, for a head cut short)
		// would be refused a second time on the same connection.
		this.closed = true;
		this.timer.disarm();
		this.pipelined.releasePending();
		FullHttpResponse response = ServerResponses.error(status, this.settings.serverHeader());
		if (retryAfter != null) {
			response.headers().set(HttpHeaderNames.RETRY_AFTER, retryAfter);
		}
		ChannelFuture write = this.ctx.writeAndFlush(response);
		write.addListener(ChannelFutureListener.CLOSE);
		return write;
	}

	@Override
	public void pauseReading(boolean paused) {
		this.pipelined.updateAutoRead();
	}

	@Override
	public void firstRequest() {
		// The handler asked for the body: time to send 100 Continue (RFC 9110, section 10.1.1).
		if (this.continueExpected && this.exchange != null && !this.exchange.isResponseStarted()) {
			this.continueExpected = false;
			this.ctx.writeAndFlush(ServerResponses.continueResponse());
		}
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		HttpExchange exchange = this.exchange;
		this.exchange = null;
		this.continueExpected = false;
		if (this.closing || this.closed) {
			this.closing = true;
			flush();
			if (lastWrite.isVoid()) {
				afterExchange();
			}
			else {
				lastWrite.addListener(this::closeAfterResponse);
			}
			if (exchange != null) {
				exchange.discardBody();
			}
			this.pipelined.releasePending();
			return;
		}
		if (!this.body.ended()) {
			if (exchange != null) {
				exchange.discardBody();
			}
			this.body.startDraining();
			if (this.body.expectsBytes()) {
				this.timer.timeBody();
			}
			this.pipelined.updateAutoRead();
			return;
		}
		afterExchange();
	}

	private void afterExchange() {
		if (this.closing) {
			// Close once the responses already written are out: a close now would drop the ones not yet flushed.
			this.flushPending = false;
			this.encoderCtx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(this::closeAfterResponse);
			return;
		}
		this.idleSince = System.nanoTime();
		if (this.receivingHead) {
			this.timer.timeHead();
		}
		else {
			this.timer.timeIdle();
		}
		this.pipelined.processPending();
	}

	/**
	 * The response that said {@code Connection: close} is written. While the server drains, the client may not have
	 * read it yet and may already have sent its next request (it had no reason to stop before): the connection closes
	 * in stages, so that no reset destroys the response.
	 */
	private void closeAfterResponse(Future<? super Void> written) {
		if (this.draining && written.isSuccess()) {
			LingeringClose.close(this.ctx.channel());
		}
		else {
			this.ctx.close();
		}
	}

	@Override
	public void abort(Throwable cause) {
		HttpExchange exchange = this.exchange;
		this.exchange = null;
		if (exchange != null) {
			exchange.cancel();
		}
		this.closing = true;
		// Nothing more is read; the close waits for what was written: on io_uring writes are still in flight after a
		// flush, and a close now would drop the parts the client has not received yet.
		this.closed = true;
		this.pipelined.releasePending();
		this.flushPending = false;
		this.encoderCtx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
	}

	// Refusals

	private void refuseHead(HttpResponseStatus status, HttpRequest request, long start) {
		this.dispatcher.refused(this, request, status, refuse(status), start);
	}

	/**
	 * The decoder could not read the request body (a chunk size, a chunk extension or a line end that breaks RFC
	 * 9112, section 7.1): its stand-in for the last part ends nothing. The handler must not take the body read so far
	 * for the whole of it, and the connection cannot tell where the next request starts, so it is refused and closed.
	 */
	private void refuseBody(HttpContent content) {
		Throwable cause = content.decoderResult().cause();
		content.release();
		HttpResponseStatus status = ServerResponses.refuseMalformedBody(cause, this.context.guards());
		HttpExchange exchange = this.exchange;
		if (exchange != null) {
			failExchange(exchange, status, new IOException("Malformed request body: " + cause.getMessage(), cause));
		}
		else {
			abort(cause);
		}
	}

	private void failExchange(HttpExchange exchange, HttpResponseStatus status, IOException cause) {
		boolean started = exchange.isResponseStarted();
		this.exchange = null;
		exchange.cancel(cause);
		if (started) {
			this.ctx.close();
		}
		else {
			this.dispatcher.refused(exchange, status, refuse(status));
		}
	}

	// Timeouts

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void idleTimedOut() {
		this.ctx.close();
	}

	@Override
	public void headTimedOut() {
		refuseHead(HttpResponseStatus.REQUEST_TIMEOUT, null, this.headStart);
	}

	@Override
	public boolean isBodyPaused() {
		return this.exchange != null && this.exchange.isBodyPaused();
	}

	@Override
	public void bodyTimedOut(boolean tooSlow) {
		HttpExchange exchange = this.exchange;
		if (exchange == null) {
			this.ctx.close();
			return;
		}
		failExchange(exchange, HttpResponseStatus.REQUEST_TIMEOUT, new IOException(tooSlow
				? "Request body slower than " + this.settings.minRequestBodyRate() + " bytes/s"
				: "Request body stalled for " + this.settings.bodyReadTimeout()));
	}

}
