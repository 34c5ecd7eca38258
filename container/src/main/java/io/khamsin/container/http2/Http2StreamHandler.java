package io.khamsin.container.http2;

import java.io.IOException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.ProtocolUpgrade;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.exchange.ExchangeChannel;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.exchange.HttpExchange;
import io.khamsin.container.exchange.StreamExchangeHandler;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * One HTTP/2 stream (RFC 9113, section 8.1): its request head goes to the {@link ExchangeDispatcher}, the exchange
 * stage of every protocol, which answers it, refuses it or makes its exchange; this handler carries the exchange
 * ({@link ExchangeChannel}) on the stream's channel, writing its response as HEADERS and DATA frames.
 * <p>
 * Flow control both ways: the stream's channel is writable while its own frames waiting for the client's window (or
 * for the socket) stay under its water mark, and the bridge writes only then, so that a client that reads one stream
 * slowly holds up that stream alone; and the stream's channel reads (and so returns window to the client) only while
 * the application asks for the body, so that a slow application holds at most a window of it. A body that stalls
 * for {@code khamsin.body-read-timeout} is refused with 408. Of a request whose response is complete before it,
 * up to 64 KiB more is read and dropped; beyond that, or once it stalls, the stream is reset with NO_ERROR, as it is
 * after a refusal (section 8.1).
 * <p>
 * It is its own task for resuming reads, which must wait for the request for more body to return.
 */
final class Http2StreamHandler extends StreamExchangeHandler implements ChannelFutureListener {

	private static final Logger logger = LoggerFactory.getLogger(Http2StreamHandler.class);

	private static final Http2Headers CONTINUE = new DefaultHttp2Headers(false).status("100");

	/** Unread request bytes read and dropped after the response, as HTTP/1.1 does; more resets the stream. */
	private static final long DISCARD_LIMIT = 64 * 1024;

	private final Http2Streams streams;

	private boolean headReceived;

	private boolean discarding;

	private boolean streamClosed;

	private long discarded;

	Http2StreamHandler(Http2Streams streams) {
		this.streams = streams;
	}

	// Inbound

	@Override
	protected void read(Object msg) {
		if (msg instanceof Http2HeadersFrame headers) {
			onHeaders(headers);
		}
		else if (msg instanceof Http2DataFrame data) {
			onData(data);
		}
		else if (msg instanceof Http2ResetFrame reset) {
			this.requestEnded = true;
			cancelExchange("Stream reset by the client: " + Http2Error.valueOf(reset.errorCode()));
		}
		else {
			ReferenceCountUtil.release(msg);
		}
	}

	private void onHeaders(Http2HeadersFrame frame) {
		boolean end = frame.isEndStream();
		if (this.headReceived) {
			// Trailers (RFC 9113, section 8.1): the end of the body; the application has no use for their fields.
			if (end) {
				bodyEnded();
			}
			return;
		}
		this.headReceived = true;
		this.requestEnded = end;
		this.streams.connection().watch(frame.stream().id(), this);
		ExchangeDispatcher dispatcher = this.streams.dispatcher();
		long start = dispatcher.timed() ? System.nanoTime() : 0;
		HttpRequest request = Http2Messages.request(frame.headers());
		if (request == null) {
			dispatcher.refused(this, null, HttpResponseStatus.BAD_REQUEST, refuse(HttpResponseStatus.BAD_REQUEST),
					start);
			return;
		}
		long bodyLength = end ? 0 : HttpUtil.getContentLength(request, -1L);
		HttpExchange exchange = dispatcher.dispatch(this, request, bodyLength, start, (frame.stream().id() + 1) / 2);
		if (exchange == null) {
			return;
		}
		this.exchange = exchange;
		this.continueExpected = HttpUtil.is100ContinueExpected(request);
		if (end) {
			exchange.onContent(LastHttpContent.EMPTY_LAST_CONTENT);
		}
		else {
			this.bodyTimer = newBodyTimer();
		}
		exchange.start();
	}

	private void onData(Http2DataFrame data) {
		boolean end = data.isEndStream();
		HttpExchange exchange = this.exchange;
		if (exchange == null) {
			discard(data);
			return;
		}
		if (this.bodyTimer != null) {
			this.bodyTimer.received(data.content().readableBytes());
		}
		HttpResponseStatus refusal = exchange.onContent(new DefaultHttpContent(data.content()));
		if (refusal != null) {
			this.requestEnded |= end;
			failExchange(exchange, refusal, new IOException("Request body exceeds the limit of "
					+ this.streams.config().maxRequestBodySize() + " bytes"));
			return;
		}
		if (end) {
			bodyEnded();
		}
	}

	private void discard(Http2DataFrame data) {
		boolean end = data.isEndStream();
		int bytes = data.content().readableBytes();
		this.discarded += bytes;
		data.release();
		if (end) {
			this.requestEnded = true;
			stopBodyTimer();
		}
		else if (this.discarding && this.discarded > DISCARD_LIMIT) {
			this.discarding = false;
			stopBodyTimer();
			resetRest();
		}
		else if (this.bodyTimer != null) {
			this.bodyTimer.received(bytes);
		}
	}

	private void bodyEnded() {
		this.requestEnded = true;
		stopBodyTimer();
		if (this.exchange != null) {
			this.exchange.onContent(LastHttpContent.EMPTY_LAST_CONTENT);
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		stopBodyTimer();
		cancelExchange("Stream closed before the request completed");
		ctx.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		Http2Error error = (cause instanceof Http2FrameStreamException streamError) ? streamError.error()
				: (cause instanceof Http2Exception http2Error) ? http2Error.error() : null;
		cancelExchange(cause);
		if (error != null) {
			// A stream error the codec hands the stream: reset it with the error's code, which closing the channel
			// would not (it resets with CANCEL).
			logger.debug("Resetting stream {} with {}: {}", ctx.channel(), error, cause.getMessage());
			ctx.writeAndFlush(new DefaultHttp2ResetFrame(error)).addListener(ChannelFutureListener.CLOSE);
			return;
		}
		if (cause instanceof IOException) {
			logger.debug("Closing stream {}: {}", ctx.channel(), cause.toString());
		}
		else {
			logger.warn("Closing stream {} after an unexpected error", ctx.channel(), cause);
		}
		ctx.close();
	}

	// ExchangeChannel

	@Override
	public Channel channel() {
		return this.ctx.channel();
	}

	@Override
	public ConnectionInfo connection() {
		return this.streams.connection();
	}

	@Override
	public ReactorMetrics reactor() {
		return this.streams.connection().reactor();
	}

	@Override
	public void prepareHead(HttpResponse head, boolean streaming) {
		this.streams.config().stamp(head.headers());
	}

	@Override
	public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
		ChannelPromise written = (promise != null) ? promise : this.ctx.newPromise();
		if (message instanceof HttpResponse head) {
			Http2Headers headers = Http2Messages.headers(head);
			if (head.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
				ReferenceCountUtil.release(message);
				this.ctx.write(new DefaultHttp2HeadersFrame(headers, false), written);
			}
			else if (message instanceof FullHttpResponse full && full.content().isReadable()) {
				this.ctx.write(new DefaultHttp2HeadersFrame(headers, false), this.ctx.voidPromise());
				this.ctx.write(new DefaultHttp2DataFrame(full.content(), true), written);
			}
			else {
				boolean end = message instanceof FullHttpResponse;
				ReferenceCountUtil.release(message);
				this.ctx.write(new DefaultHttp2HeadersFrame(headers, end), written);
			}
		}
		else if (message instanceof HttpContent content) {
			// Trailers of a LastHttpContent are not written: the bridge writes none.
			this.ctx.write(new DefaultHttp2DataFrame(content.content(), content instanceof LastHttpContent), written);
		}
		else {
			ReferenceCountUtil.release(message);
			written.setFailure(new IllegalArgumentException("An HTTP/2 stream cannot write " + message.getClass()));
		}
		if (flush) {
			flush();
		}
		return written;
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		ChannelPromise written = answerPromise(promise);
		Http2Headers headers = this.streams.fixedResponses().headers(response);
		byte[] body = response.body();
		if (headRequest || body.length == 0) {
			this.ctx.write(new DefaultHttp2HeadersFrame(headers, true), written);
		}
		else {
			this.ctx.write(new DefaultHttp2HeadersFrame(headers, false), this.ctx.voidPromise());
			this.ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true), written);
		}
		flush();
		return written;
	}

	@Override
	public ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise) {
		ChannelPromise written = answerPromise(promise);
		Http2Headers headers = Http2HitHeaders.of(hit);
		ByteBuf body = hit.body();
		if (body == null || !body.isReadable()) {
			if (body != null) {
				body.release();
			}
			this.ctx.write(new DefaultHttp2HeadersFrame(headers, true), written);
		}
		else {
			// The codec cuts the body into DATA frames as the stream's window allows; it holds the entry's bytes, no copy.
			this.ctx.write(new DefaultHttp2HeadersFrame(headers, false), this.ctx.voidPromise());
			this.ctx.write(new DefaultHttp2DataFrame(body, true), written);
		}
		flush();
		return written;
	}

	@Override
	public ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise) {
		ChannelPromise written = answerPromise(promise);
		this.ctx.write(new DefaultHttp2HeadersFrame(Http2HitHeaders.of(notModified), true), written);
		flush();
		return written;
	}

	/** A response complete before its request listens for its end, to reset the rest of the request. */
	private ChannelPromise answerPromise(ChannelPromise promise) {
		return (promise != null) ? promise : this.requestEnded ? this.ctx.voidPromise() : this.ctx.newPromise();
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
		cancelExchange("Request refused with " + status);
		stopBodyTimer();
		Http2Headers headers = new DefaultHttp2Headers(false, 4).status(status.codeAsText());
		headers.setInt(HttpHeaderNames.CONTENT_LENGTH, 0).set(HttpHeaderNames.DATE, DateHeader.now());
		String server = this.streams.config().serverHeader();
		if (server != null) {
			headers.set(HttpHeaderNames.SERVER, server);
		}
		if (retryAfter != null) {
			headers.set(HttpHeaderNames.RETRY_AFTER, retryAfter);
		}
		ChannelPromise written = this.ctx.newPromise();
		this.ctx.write(new DefaultHttp2HeadersFrame(headers, true), written);
		if (!this.requestEnded) {
			written.addListener(this);
		}
		flush();
		return written;
	}

	/**
	 * The stream closed (reset, or its connection gone). A channel that is not reading would hold its last frames
	 * until the application asked for more body: cancel the exchange and read them, so that the channel closes.
	 */
	void streamClosed() {
		if (!this.ctx.channel().config().isAutoRead()) {
			this.streamClosed = true;
			this.resumeScheduled = true;
			// Not within the codec's closing of the stream.
			this.ctx.executor().execute(this);
		}
	}

	/** Resume reading the body, if it is still wanted or the stream closed. */
	@Override
	public void run() {
		this.resumeScheduled = false;
		if (this.streamClosed) {
			cancelExchange("Stream closed before the request completed");
		}
		if ((!this.paused || this.streamClosed) && this.ctx.channel().isActive()) {
			this.ctx.channel().config().setAutoRead(true);
		}
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		this.exchange = null;
		this.continueExpected = false;
		if (this.requestEnded) {
			stopBodyTimer();
			return;
		}
		// The rest of the request is read and dropped, within a limit and the body timeout, so that a client that
		// ends its request soon (a GET whose HEADERS did not end the stream) sees no reset.
		this.discarding = true;
		if (this.bodyTimer == null) {
			this.bodyTimer = newBodyTimer();
		}
	}

	/**
	 * A refusal is out while the request is not over: ask the client to stop sending it (RFC 9113, section 8.1).
	 * @param written the future of the refusal's write
	 */
	@Override
	public void operationComplete(ChannelFuture written) {
		if (written.isSuccess() && !this.requestEnded) {
			resetRest();
		}
	}

	private void resetRest() {
		reset(Http2Error.NO_ERROR);
	}

	/**
	 * Reset the stream, unless it is closed already: a reset of a closed stream (the client may have reset it while
	 * the response was on its way) would reach the client as a reset of a stream it no longer knows.
	 */
	private void reset(Http2Error error) {
		Http2Stream.State state = ((Http2StreamChannel) this.ctx.channel()).stream().state();
		if (this.ctx.channel().isActive() && state != Http2Stream.State.CLOSED && state != Http2Stream.State.IDLE) {
			this.ctx.writeAndFlush(new DefaultHttp2ResetFrame(error));
		}
	}

	@Override
	public ProtocolUpgrade upgrade() {
		// HTTP/2 does not switch protocols (RFC 9113, section 8.6).
		return null;
	}

	@Override
	public void abort(Throwable cause) {
		cancelExchange(cause);
		stopBodyTimer();
		reset(Http2Error.INTERNAL_ERROR);
	}

	@Override
	protected void failExchange(HttpExchange exchange, HttpResponseStatus status, IOException cause) {
		boolean started = exchange.isResponseStarted();
		this.exchange = null;
		exchange.cancel(cause);
		stopBodyTimer();
		if (started) {
			reset(Http2Error.CANCEL);
		}
		else {
			this.streams.dispatcher().refused(exchange, status, refuse(status));
		}
	}

	@Override
	protected HttpSettings settings() {
		return this.streams.config();
	}

	@Override
	protected GuardCounters guards() {
		return this.streams.guards();
	}

	@Override
	protected void writeContinue() {
		this.ctx.writeAndFlush(new DefaultHttp2HeadersFrame(CONTINUE, false));
	}

	@Override
	protected void restStalled() {
		// The response is out and the rest of the request stalled: stop waiting for it.
		this.discarding = false;
		resetRest();
	}

}
