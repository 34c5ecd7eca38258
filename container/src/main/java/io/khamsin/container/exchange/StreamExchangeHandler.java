package io.khamsin.container.exchange;

import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * What the handler of one stream of a multiplexed connection (an HTTP/2 stream, an HTTP/3 request stream) does alike
 * whatever its protocol: it carries one exchange on the stream's channel; its writes are flushed at the end of the
 * read batch they happen in; its body is read only while the application asks for it (the channel's auto-read, turned
 * back on in a task of its own); {@code 100 Continue} goes out when the application first asks for the body; and a body
 * that stalls for {@code khamsin.body-read-timeout} is refused with 408, and a response the client gives no credit for
 * {@code khamsin.send-timeout} is reset. The protocol writes its own frames.
 * <p>
 * It is its own task for resuming reads, which must wait for the request for more body to return.
 */
public abstract class StreamExchangeHandler extends ChannelInboundHandlerAdapter
		implements ExchangeChannel, Runnable, BodyReadTimer.Stall {

	private static final Logger logger = LoggerFactory.getLogger(StreamExchangeHandler.class);

	/** The stream's context, once the handler is in its pipeline. */
	protected ChannelHandlerContext ctx;

	/** The exchange the stream carries, until it completes or is cancelled. */
	protected HttpExchange exchange;

	/** Whether the client has sent the whole request. */
	protected boolean requestEnded;

	/** Whether the request asked for {@code 100 Continue}, not yet sent. */
	protected boolean continueExpected;

	/** Whether the application asks for no more body now. */
	protected boolean paused;

	/** Whether a task to resume reading is on its way. */
	protected boolean resumeScheduled;

	/** The body's stall timeout, while a body is awaited. */
	protected BodyReadTimer bodyTimer;

	private boolean inRead;

	private boolean flushPending;

	private boolean flushScheduled;

	private final Runnable flushTask = () -> {
		this.flushScheduled = false;
		this.ctx.flush();
	};

	private long unwritableSince;

	private ScheduledFuture<?> sendCheck;

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
	}

	/** @return the settings every protocol applies (the body timeout among them) */
	protected abstract HttpSettings settings();

	/** @return the server's guard counters */
	protected abstract GuardCounters guards();

	/**
	 * A message of the stream, read within a read batch.
	 * @param msg the message
	 */
	protected abstract void read(Object msg);

	/** Write {@code 100 Continue} as the protocol writes an informational head, and flush it. */
	protected abstract void writeContinue();

	/**
	 * End an exchange the server gives up on: reset the stream if its response has begun, else answer with the status.
	 * @param exchange the exchange, already taken from {@link #exchange}
	 * @param status the status to answer with
	 * @param cause why, for the exchange's cancellation
	 */
	protected abstract void failExchange(HttpExchange exchange, HttpResponseStatus status, IOException cause);

	/** The rest of a request whose response is out stalled: stop waiting for it. */
	protected abstract void restStalled();

	@Override
	public final void channelRead(ChannelHandlerContext ctx, Object msg) {
		this.inRead = true;
		read(msg);
	}

	/** The read batch ended, before what it wrote is flushed: for a protocol that decides there. */
	protected void readBatchEnded() {
	}

	@Override
	public final void channelReadComplete(ChannelHandlerContext ctx) {
		readBatchEnded();
		this.inRead = false;
		if (this.flushPending) {
			this.flushPending = false;
			ctx.flush();
		}
	}

	@Override
	public final void channelWritabilityChanged(ChannelHandlerContext ctx) {
		if (this.exchange != null) {
			if (!ctx.channel().isWritable()) {
				timeSend();
				becameUnwritable(this.exchange);
			}
			this.exchange.onWritabilityChanged();
		}
	}

	/**
	 * The stream stopped taking writes: the client gives it no flow-control credit. A stream that stays so for
	 * {@code khamsin.send-timeout} (a client that opens streams and never reads them, which the connection's own send
	 * timeout does not see while other streams move) is failed, counted as {@link Guard#SEND_TIMEOUT}. One check is
	 * scheduled at a time, and only while the stream is blocked.
	 */
	private void timeSend() {
		this.unwritableSince = System.nanoTime();
		if (this.sendCheck == null) {
			this.sendCheck = this.ctx.executor().schedule(this::checkSend, settings().sendTimeout().toNanos(),
					TimeUnit.NANOSECONDS);
		}
	}

	private void checkSend() {
		this.sendCheck = null;
		HttpExchange exchange = this.exchange;
		if (exchange == null || this.ctx.channel().isWritable() || !this.ctx.channel().isActive()) {
			return;
		}
		long left = this.unwritableSince + settings().sendTimeout().toNanos() - System.nanoTime();
		if (left > 0) {
			this.sendCheck = this.ctx.executor().schedule(this::checkSend, left, TimeUnit.NANOSECONDS);
			return;
		}
		guards().increment(Guard.SEND_TIMEOUT);
		logger.debug("Stream {} got no credit for its response for khamsin.send-timeout ({}): reset",
				this.ctx.channel(), settings().sendTimeout());
		this.exchange = null;
		failExchange(exchange, HttpResponseStatus.SERVICE_UNAVAILABLE,
				new IOException("Response not taken by the client for " + settings().sendTimeout()));
	}

	/**
	 * The stream stopped taking writes while its exchange is on: for a protocol that must act then.
	 * @param exchange the exchange
	 */
	protected void becameUnwritable(HttpExchange exchange) {
	}

	/** Flush now, or at the end of the read batch the call is in. */
	protected final void flush() {
		if (this.inRead) {
			this.flushPending = true;
		}
		else {
			this.ctx.flush();
		}
	}

	/**
	 * Flush what was written without a flush, at the end of the read batch or of the task that wrote it: for a stream
	 * whose writes complete only when flushed (a QUIC stream), so that a writer waiting for them is not left waiting.
	 */
	protected final void flushSoon() {
		if (this.inRead) {
			this.flushPending = true;
		}
		else if (!this.flushScheduled) {
			this.flushScheduled = true;
			this.ctx.executor().execute(this.flushTask);
		}
	}

	/**
	 * Cancel the exchange, if one is on, with an {@link IOException} made only then: a stream ends this way after
	 * nearly every response, and filling in a stack trace each time cost 2% of a server core under HTTP/3 load.
	 * @param why the exception's message
	 */
	protected final void cancelExchange(String why) {
		if (this.exchange != null) {
			cancelExchange(new IOException(why));
		}
	}

	/**
	 * Cancel the exchange, if one is on.
	 * @param cause why
	 */
	protected final void cancelExchange(Throwable cause) {
		HttpExchange exchange = this.exchange;
		this.exchange = null;
		if (exchange != null) {
			exchange.cancel(cause);
		}
	}

	@Override
	public void pauseReading(boolean paused) {
		this.paused = paused;
		if (paused) {
			this.ctx.channel().config().setAutoRead(false);
		}
		else if (!this.resumeScheduled) {
			// Not at once: the stream's channel hands over what it holds within the call, while the body's
			// publisher is still taking the request for more.
			this.resumeScheduled = true;
			this.ctx.executor().execute(this);
		}
	}

	/** Resume reading the body, if it is still wanted. */
	@Override
	public void run() {
		this.resumeScheduled = false;
		if (!this.paused && this.ctx.channel().isActive()) {
			this.ctx.channel().config().setAutoRead(true);
		}
	}

	@Override
	public final void firstRequest() {
		// The application asked for the body: time to send 100 Continue (RFC 9110, section 10.1.1).
		if (this.continueExpected && this.exchange != null && !this.exchange.isResponseStarted()) {
			this.continueExpected = false;
			writeContinue();
		}
	}

	/** @return a stall timeout for the body, started now */
	protected final BodyReadTimer newBodyTimer() {
		return new BodyReadTimer(this.ctx.executor(), settings().bodyReadTimeout(), BodyRate.start(settings()), this);
	}

	/** Stop the body's stall timeout, if it runs. */
	protected final void stopBodyTimer() {
		if (this.bodyTimer != null) {
			this.bodyTimer.stop();
			this.bodyTimer = null;
		}
	}

	@Override
	public final HttpExchange waitingExchange() {
		return this.exchange;
	}

	@Override
	public final void bodyStalled(HttpExchange exchange, boolean tooSlow) {
		this.bodyTimer = null;
		if (exchange == null) {
			restStalled();
			return;
		}
		IOException cause;
		if (tooSlow) {
			guards().increment(Guard.MIN_REQUEST_BODY_RATE);
			logger.debug("Request body of stream {} arrived slower than khamsin.min-request-body-rate ({} bytes/s): 408",
					this.ctx.channel(), settings().minRequestBodyRate());
			cause = new IOException("Request body slower than " + settings().minRequestBodyRate() + " bytes/s");
		}
		else {
			guards().increment(Guard.BODY_READ_TIMEOUT);
			logger.debug("Request body of stream {} stalled for khamsin.body-read-timeout ({}): 408",
					this.ctx.channel(), settings().bodyReadTimeout());
			cause = new IOException("Request body stalled for " + settings().bodyReadTimeout());
		}
		failExchange(exchange, HttpResponseStatus.REQUEST_TIMEOUT, cause);
	}

}
