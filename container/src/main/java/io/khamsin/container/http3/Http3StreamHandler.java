package io.khamsin.container.http3;

import java.io.IOException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelOutputShutdownException;
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
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
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
 * One HTTP/3 request stream (RFC 9114, section 4.1): its request head goes to the {@link ExchangeDispatcher}, the
 * exchange stage of every protocol, and this handler carries the exchange ({@link ExchangeChannel}) on the stream's
 * channel, writing its response as HEADERS and DATA frames and ending it with the stream's FIN.
 * <p>
 * Flow control as on HTTP/2, by QUIC's own: the stream's channel is writable while QUIC takes its data, and it reads
 * (and so returns credit to the client) only while the application asks for the body. A body that stalls for
 * {@code khamsin.body-read-timeout} is refused with 408. Of a request whose response is complete before it, up to
 * 64 KiB more is read and dropped, and the rest refused with {@code STOP_SENDING} ({@code H3_NO_ERROR}, section
 * 4.1.1); a response that cannot be completed resets the stream with {@code H3_INTERNAL_ERROR}.
 */
final class Http3StreamHandler extends StreamExchangeHandler {

	private static final Logger logger = LoggerFactory.getLogger(Http3StreamHandler.class);

	/** The request stream was closed without the whole request (RFC 9114, section 8.1). */
	static final int H3_REQUEST_INCOMPLETE = 0x10d;

	/** An error in the server (section 8.1). */
	static final int H3_INTERNAL_ERROR = 0x102;

	/** Unread request bytes read and dropped after the response, as HTTP/1.1 and HTTP/2 do; more stop the rest. */
	private static final long DISCARD_LIMIT = 64 * 1024;

	private static final Http3Headers CONTINUE = new DefaultHttp3Headers(false).status("100");

	private final Http3Streams streams;

	/**
	 * A write the client refused with {@code STOP_SENDING}: Netty fails the writes it held and leaves the stream's
	 * channel open (the request may still be read), and it says nothing when it held none, so the response would wait
	 * for a writability that never comes. The client no longer wants the response: cancel the exchange and close the
	 * stream.
	 */
	private final ChannelFutureListener stopped = (future) -> {
		if (future.cause() instanceof ChannelOutputShutdownException) {
			responseStopped();
		}
	};

	private QuicStreamChannel stream;

	private boolean headReceived;

	private HttpRequest pendingRequest;

	private long pendingStart;

	private boolean bodyEnded;

	private boolean outputEnded;

	private boolean discarding;

	private long discarded;

	Http3StreamHandler(Http3Streams streams) {
		this.streams = streams;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		super.handlerAdded(ctx);
		this.stream = (QuicStreamChannel) ctx.channel();
	}

	// Inbound

	@Override
	protected void read(Object msg) {
		if (msg instanceof Http3HeadersFrame headers) {
			onHeaders(headers);
		}
		else if (msg instanceof Http3DataFrame data) {
			onData(data);
		}
		else {
			ReferenceCountUtil.release(msg);
		}
	}

	private void onHeaders(Http3HeadersFrame frame) {
		if (this.headReceived) {
			// Trailers (RFC 9114, section 4.1): the application has no use for their fields; the FIN ends the body.
			return;
		}
		this.headReceived = true;
		ExchangeDispatcher dispatcher = this.streams.dispatcher();
		long start = dispatcher.timed() ? System.nanoTime() : 0;
		HttpRequest request = Http3Messages.request(frame.headers());
		if (request == null) {
			dispatcher.refused(this, null, HttpResponseStatus.BAD_REQUEST, refuse(HttpResponseStatus.BAD_REQUEST),
					start);
			return;
		}
		// Dispatched once the read batch shows whether the body is empty: HTTP/3 ends a request with the stream's FIN,
		// not with a flag on its HEADERS frame, and a GET's FIN usually comes in the same packet (fixed responses and
		// the page cache answer only requests without a body).
		this.pendingRequest = request;
		this.pendingStart = start;
	}

	private void dispatchPending() {
		HttpRequest request = this.pendingRequest;
		this.pendingRequest = null;

		long bodyLength = this.requestEnded ? 0 : HttpUtil.getContentLength(request, -1L);
		HttpExchange exchange = this.streams.dispatcher()
			.dispatch(this, request, bodyLength, this.pendingStart, this.stream.streamId() / 4 + 1);
		if (exchange == null) {
			return;
		}
		this.exchange = exchange;
		this.continueExpected = HttpUtil.is100ContinueExpected(request);
		if (this.requestEnded) {
			endBody(exchange);
		}
		else {
			this.bodyTimer = newBodyTimer();
		}
		exchange.start();
	}

	/** The request's body is whole: tell the exchange once. */
	private void endBody(HttpExchange exchange) {
		if (!this.bodyEnded) {
			this.bodyEnded = true;
			exchange.onContent(LastHttpContent.EMPTY_LAST_CONTENT);
		}
	}

	@Override
	protected void readBatchEnded() {
		if (this.pendingRequest != null) {
			// A request whose head alone came in the batch: Netty marks the stream's input shut (its FIN) before it
			// ends the read batch, and tells the pipeline after.
			this.requestEnded |= this.stream.isInputShutdown();
			dispatchPending();
		}
	}

	private void onData(Http3DataFrame data) {
		if (this.pendingRequest != null) {
			dispatchPending();
		}
		HttpExchange exchange = this.exchange;
		if (exchange == null) {
			int bytes = data.content().readableBytes();
			this.discarded += bytes;
			data.release();
			if (this.discarding && this.discarded > DISCARD_LIMIT) {
				stopBodyTimer();
				stopRest();
			}
			else if (this.bodyTimer != null) {
				this.bodyTimer.received(bytes);
			}
			return;
		}
		if (this.bodyTimer != null) {
			this.bodyTimer.received(data.content().readableBytes());
		}
		HttpResponseStatus refusal = exchange.onContent(new DefaultHttpContent(data.content()));
		if (refusal != null) {
			failExchange(exchange, refusal, new IOException("Request body exceeds the limit of "
					+ this.streams.settings().maxRequestBodySize() + " bytes"));
		}
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		if (event == ChannelInputShutdownEvent.INSTANCE) {
			// The client's FIN: the request is whole.
			this.requestEnded = true;
			stopBodyTimer();
			if (this.pendingRequest != null) {
				dispatchPending();
			}
			else if (this.exchange != null) {
				endBody(this.exchange);
			}
		}
		ctx.fireUserEventTriggered(event);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		stopBodyTimer();
		cancelExchange("Stream closed before the request completed");
		if (this.headReceived && !this.outputEnded) {
			// A request whose response never ended: reset or stopped by the client, or reset by the server.
			this.streams.connection().streamEndedEarly();
		}
		this.streams.connection().streamClosed();
		ctx.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		cancelExchange(cause);
		if (cause instanceof IOException || cause.getClass().getName().startsWith("io.netty.handler.codec.")) {
			// A reset by the client, or a frame the stream's codec refused (it has answered the client already).
			logger.debug("Closing HTTP/3 stream {}: {}", ctx.channel(), cause.toString());
		}
		else {
			logger.warn("Closing HTTP/3 stream {} after an unexpected error", ctx.channel(), cause);
		}
		ctx.close();
	}

	/**
	 * Keep one write queued while the stream waits for QUIC's credit: an empty DATA frame (two bytes, allowed by RFC
	 * 9114, section 7.2.1), so that a STOP_SENDING that arrives meanwhile fails it and ends the exchange; with nothing
	 * queued Netty reports the STOP_SENDING to nobody and the response would wait for ever (seen with both cores busy).
	 */
	@Override
	protected void becameUnwritable(HttpExchange exchange) {
		if (!this.outputEnded && exchange.isResponseStarted()) {
			this.ctx.write(new DefaultHttp3DataFrame(Unpooled.EMPTY_BUFFER)).addListener(this.stopped);
		}
	}

	private void responseStopped() {
		logger.debug("HTTP/3 stream {}: the client stopped the response (STOP_SENDING)", this.stream);
		cancelExchange("The client stopped the response (STOP_SENDING)");
		stopBodyTimer();
		this.ctx.close();
	}

	// ExchangeChannel

	@Override
	public Channel channel() {
		return this.stream;
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
		this.streams.settings().stamp(head.headers());
	}

	@Override
	public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
		ChannelPromise written = orNew(promise);
		if (!written.isVoid()) {
			written.addListener(this.stopped);
		}
		if (message instanceof HttpResponse head) {
			Http3Headers headers = Http3Messages.headers(head);
			if (head.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
				ReferenceCountUtil.release(message);
				this.ctx.write(new DefaultHttp3HeadersFrame(headers), written);
			}
			else if (message instanceof FullHttpResponse full) {
				writeWhole(headers, full.content(), written);
			}
			else {
				this.ctx.write(new DefaultHttp3HeadersFrame(headers), written);
			}
		}
		else if (message instanceof HttpContent content) {
			// Trailers of a LastHttpContent are not written: the bridge writes none.
			ByteBuf body = content.content();
			if (content instanceof LastHttpContent) {
				// An empty last part still goes as a DATA frame (an empty one is two bytes, RFC 9114, section 7.2.1):
				// the FIN must follow the parts before it, and Netty sends a stream's FIN at once, ahead of the data
				// the stream still holds back for want of QUIC credit, which the client would then never get.
				writeLast(new DefaultHttp3DataFrame(body), written);
			}
			else {
				this.ctx.write(new DefaultHttp3DataFrame(body), written);
			}
		}
		else {
			ReferenceCountUtil.release(message);
			written.setFailure(new IllegalArgumentException("An HTTP/3 stream cannot write " + message.getClass()));
		}
		if (flush) {
			flush();
		}
		else {
			// A QUIC stream completes a write only when it is flushed, and the bridge waits for its parts' writes before
			// it ends a response: unflushed, a part written with flush false held the response's end for ever.
			flushSoon();
		}
		return written;
	}

	/**
	 * Write a whole response: its HEADERS frame and, when it has a body, one DATA frame, with the stream's FIN, in one
	 * write below the HTTP/3 frame codec ({@link Http3Frames}). The frames follow whatever the codec wrote before on
	 * this stream (a 100 Continue): with QPACK's dynamic table off the codec holds nothing back.
	 * @param body the body, or {@code null}; released when empty
	 */
	private ChannelFuture writeWhole(Http3Headers headers, ByteBuf body, ChannelPromise written) {
		ByteBuf frames = Http3Frames.response(this.ctx.alloc(), headers, body);
		this.outputEnded = true;
		this.stream.pipeline().firstContext().write(new DefaultQuicStreamFrame(frames, true), written);
		flush();
		return written;
	}

	/**
	 * Write the response's last frame, and end the stream's output (FIN) once the frame is written: the FIN must wait
	 * for every frame before it, since Netty writes it to the stream at once, ahead of the frames the HTTP/3 codec (until
	 * the QPACK encoder stream is open) or the stream (until QUIC grants credit) still hold; it leaves in the same
	 * flush. {@code written} completes with the FIN.
	 */
	private void writeLast(Object frame, ChannelPromise written) {
		this.ctx.write(frame).addListener((ChannelFuture future) -> {
			if (future.isSuccess()) {
				endOutput(written);
			}
			else {
				written.tryFailure(future.cause());
			}
		});
		// The FIN waits for the frame to be written, which takes a flush: without one, a last part its writer did not
		// flush would hold the response's end until something else flushed the stream (4-8 ms a request, measured).
		flush();
	}

	private void endOutput(ChannelPromise written) {
		if (this.outputEnded) {
			written.trySuccess();
			return;
		}
		this.outputEnded = true;
		this.stream.shutdownOutput(written);
	}

	@Override
	public ChannelFuture writeFixed(FixedResponseTable.Entry response, boolean headRequest, ChannelPromise promise) {
		byte[] body = response.body();
		return writeWhole(this.streams.fixedResponses().headers(response),
				(headRequest || body.length == 0) ? null : Unpooled.wrappedBuffer(body), orNew(promise));
	}

	@Override
	public ChannelFuture writeHit(Lookup.Hit hit, ChannelPromise promise) {
		return writeWhole(Http3HitHeaders.of(hit), hit.body(), orNew(promise));
	}

	@Override
	public ChannelFuture writeNotModified(Lookup.NotModified notModified, ChannelPromise promise) {
		return writeWhole(Http3HitHeaders.of(notModified), null, orNew(promise));
	}

	private ChannelPromise orNew(ChannelPromise promise) {
		return (promise != null) ? promise : this.ctx.newPromise();
	}

	@Override
	public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
		cancelExchange("Request refused with " + status);
		stopBodyTimer();
		Http3Headers headers = new DefaultHttp3Headers(false, 4).status(status.codeAsText());
		headers.setInt(HttpHeaderNames.CONTENT_LENGTH, 0).set(HttpHeaderNames.DATE, DateHeader.now());
		String server = this.streams.settings().serverHeader();
		if (server != null) {
			headers.set(HttpHeaderNames.SERVER, server);
		}
		if (retryAfter != null) {
			headers.set(HttpHeaderNames.RETRY_AFTER, retryAfter);
		}
		return writeWhole(headers, null, this.ctx.newPromise());
	}

	@Override
	public void exchangeComplete(ChannelFuture lastWrite) {
		this.exchange = null;
		this.continueExpected = false;
		if (this.requestEnded || !this.stream.isActive()) {
			stopBodyTimer();
			return;
		}
		// The response is whole before the request's end: read and drop the rest, up to a limit and within the body
		// timeout (a GET's end often follows its head in a packet of its own); beyond either, ask the client to stop
		// sending (section 4.1.1).
		this.discarding = true;
		this.stream.config().setAutoRead(true);
		if (this.bodyTimer == null) {
			this.bodyTimer = newBodyTimer();
		}
	}

	@Override
	public ProtocolUpgrade upgrade() {
		// HTTP/3 does not switch protocols (RFC 9114, section 4.1).
		return null;
	}

	@Override
	public void abort(Throwable cause) {
		cancelExchange(cause);
		stopBodyTimer();
		if (this.stream.isActive()) {
			this.stream.shutdown(H3_INTERNAL_ERROR);
		}
	}

	@Override
	protected void failExchange(HttpExchange exchange, HttpResponseStatus status, IOException cause) {
		boolean started = exchange.isResponseStarted();
		this.exchange = null;
		exchange.cancel(cause);
		stopBodyTimer();
		if (started) {
			this.stream.shutdown(H3_REQUEST_INCOMPLETE);
		}
		else {
			this.streams.dispatcher().refused(exchange, status, refuse(status));
			this.stream.shutdownInput(Http3Connection.H3_NO_ERROR);
			this.stream.config().setAutoRead(true);
		}
	}

	@Override
	protected HttpSettings settings() {
		return this.streams.settings();
	}

	@Override
	protected GuardCounters guards() {
		return this.streams.guards();
	}

	@Override
	protected void writeContinue() {
		this.ctx.writeAndFlush(new DefaultHttp3HeadersFrame(CONTINUE));
	}

	@Override
	protected void restStalled() {
		// The response is out and the rest of the request stalled: stop waiting for it.
		stopRest();
	}

	/** Ask the client to stop sending the rest of a request whose response is out (section 4.1.1). */
	private void stopRest() {
		this.discarding = false;
		if (this.stream.isActive()) {
			this.stream.shutdownInput(Http3Connection.H3_NO_ERROR);
		}
	}

}
