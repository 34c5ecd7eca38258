package io.khamsin.container.exchange;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.CoreSubscriber;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.InboundPublisher;
import io.khamsin.container.bridge.KhamsinServerHttpRequest;
import io.khamsin.container.bridge.KhamsinServerHttpResponse;
import io.khamsin.container.forwarded.RequestOrigin;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * One request and its response, from the decoded request head to the last byte of the answer, carried by an
 * {@link ExchangeChannel} and made by the {@link ExchangeDispatcher}. Subscribes the Spring {@link HttpHandler}; an
 * error before the response head is written becomes a 500 (a 503 when it is an allocation that found the
 * direct-memory limit reached, which passes once load drops), an error after it aborts the connection, and the
 * server goes on serving. Whatever of the request body the handler did not take is released when the exchange ends,
 * whichever way it ends. When its last write is handed to the channel, only its clock listens for that write to
 * complete (a {@link WriteClock}: its reactor, the key of its tags and its start), not the exchange: on a transport
 * whose writes complete a pass later (io_uring), an exchange kept by its write would keep its request, response and
 * the handler's whole chain alive across a young collection, for every response of the pass.
 * <p>
 * An exchange whose page-cache lookup is deferred (it waits for another request's render of its key) is held by its
 * protocol as any other, and starts the handler only once the lookup ends as a miss or a bypass; when it ends as a
 * hit, the exchange is answered from the cache and the handler never runs. A background exchange renders a stale
 * entry again for the cache (stale-while-revalidate): no client waits for it, and it is neither counted nor logged.
 */
public final class HttpExchange implements CoreSubscriber<Void> {

	private static final Logger logger = LoggerFactory.getLogger(HttpExchange.class);

	private final ExchangeDispatcher dispatcher;

	private final ExchangeChannel channel;

	private final KhamsinServerHttpRequest request;

	private final KhamsinServerHttpResponse response;

	private final InboundPublisher<DataBuffer> body;

	private final NettyDataBufferFactory bufferFactory;

	private final long startNanos;

	private final boolean background;

	private Deferral pending;

	private long bodyBytes;

	private Subscription handlerSubscription;

	private boolean finished;

	private ScheduledFuture<?> requestTimer;

	/**
	 * @param origin where trusted proxies say the request came from, or {@code null}
	 * @param pending what the exchange waits for before its handler may start, {@code null} when it may start at
	 * once
	 * @param background whether no client waits for the exchange (a revalidation of a stale entry)
	 */
	HttpExchange(ExchangeDispatcher dispatcher, ExchangeChannel channel, HttpRequest nettyRequest, URI uri,
			RequestOrigin origin, NettyDataBufferFactory bufferFactory, long sequence, long startNanos,
			Deferral pending, boolean background) {
		this.pending = pending;
		this.background = background;
		this.dispatcher = dispatcher;
		this.channel = channel;
		this.bufferFactory = bufferFactory;
		this.startNanos = startNanos;
		this.body = new InboundPublisher<>(channel, channel.channel().eventLoop(), DataBufferUtils::release);
		this.request = new KhamsinServerHttpRequest(nettyRequest, uri, origin, channel, this.body, sequence);
		this.response = KhamsinServerHttpResponse.create(channel, bufferFactory,
				nettyRequest.method().equals(HttpMethod.HEAD), dispatcher.compression(), nettyRequest.headers(),
				dispatcher.egress());
	}

	/**
	 * Hand the exchange to the handler, or, while it must wait (a page-cache lookup under way), to what it waits for.
	 */
	public void start() {
		Deferral pending = this.pending;
		if (pending != null) {
			pending.whenReady(this);
			return;
		}
		startHandler();
	}

	/** The wait ended: the handler may run. */
	void proceed() {
		this.pending = null;
		startHandler();
	}

	/** The wait ended with an answer given otherwise: the handler never runs, and its body is dropped. */
	void answered() {
		this.pending = null;
		this.finished = true;
		this.body.discard();
	}

	private void startHandler() {
		long timeout = this.dispatcher.requestTimeoutNanos();
		if (timeout > 0 && !this.background) {
			this.requestTimer = this.response.eventLoop().schedule(this::timedOut, timeout, TimeUnit.NANOSECONDS);
		}
		try {
			this.dispatcher.handler().handle(this.request, this.response).subscribe(this);
		}
		catch (Throwable ex) {
			onError(ex);
		}
	}

	/**
	 * The handler did not begin its response within {@code khamsin.request-timeout}: it is cancelled, and the client
	 * answered 503, so that a handler that never completes holds neither the client nor the connection (an HTTP/1.1
	 * connection serves its next request). A response already begun (a stream of events) is the handler's to end.
	 */
	private void timedOut() {
		this.requestTimer = null;
		if (this.finished || this.response.isHeadWritten()) {
			return;
		}
		this.finished = true;
		this.dispatcher.guards().increment(Guard.REQUEST_TIMEOUT);
		logger.warn("{} {} did not begin its response within khamsin.request-timeout ({}); answering 503",
				this.request.getMethod(), this.request.getURI().getRawPath(),
				Duration.ofNanos(this.dispatcher.requestTimeoutNanos()));
		Subscription subscription = this.handlerSubscription;
		if (subscription != null) {
			subscription.cancel();
		}
		this.body.discard();
		ChannelFuture lastWrite = this.response.writeError(HttpResponseStatus.SERVICE_UNAVAILABLE);
		this.channel.exchangeComplete(lastWrite);
		this.dispatcher.written(this, lastWrite);
	}

	private void stopRequestTimer() {
		ScheduledFuture<?> timer = this.requestTimer;
		if (timer != null) {
			this.requestTimer = null;
			timer.cancel(false);
		}
	}

	/**
	 * A part of the request body arrived; its bytes now belong to the exchange, unless the body grew past
	 * {@code khamsin.max-request-body-size}, in which case they are released and the protocol refuses the rest.
	 * @param content the part
	 * @return {@code null}, or the status to refuse the request with
	 */
	public HttpResponseStatus onContent(HttpContent content) {
		ByteBuf bytes = content.content();
		this.bodyBytes += bytes.readableBytes();
		HttpResponseStatus refusal = this.dispatcher.checkBody(this, this.bodyBytes);
		if (refusal != null) {
			content.release();
			return refusal;
		}
		if (bytes.isReadable()) {
			this.body.onPart(this.bufferFactory.wrap(bytes));
		}
		else {
			bytes.release();
		}
		if (content instanceof LastHttpContent) {
			this.body.onComplete();
		}
		return null;
	}

	/**
	 * The handler will not read the rest of the body: drop it.
	 */
	public void discardBody() {
		this.body.discard();
	}

	/** @return whether reading is paused because the handler has not asked for more body */
	public boolean isBodyPaused() {
		return this.body.isPaused();
	}

	/** @return the response status, {@code 200} unless the handler set another */
	public int status() {
		return this.response.statusCode();
	}

	/**
	 * WebFlux's best matching pattern for the request, as the route of its figures.
	 * @return the pattern (a {@code PathPattern} or a string), or {@code null} when no handler mapping set one
	 */
	public Object route() {
		return this.request.route();
	}

	/** @return the decoded request head */
	public HttpRequest head() {
		return this.request.getNativeRequest();
	}

	/** @return {@link System#nanoTime()} at the first byte of the request head, when requests are timed */
	public long startNanos() {
		return this.startNanos;
	}

	/** @return the response's {@code Content-Length} header, or {@code null} */
	public String responseContentLength() {
		return this.response.contentLength();
	}

	/** @return whether the response head was handed to the channel */
	public boolean isResponseStarted() {
		return this.response.isHeadWritten();
	}

	ConnectionInfo connection() {
		return this.channel.connection();
	}

	/** @return the client's address: its proxies' word for it where they are trusted, else the connection's peer */
	InetSocketAddress remoteAddress() {
		return this.request.getRemoteAddress();
	}

	/** @return whether no client waits for this exchange: it renders a stale page again for the cache */
	boolean isBackground() {
		return this.background;
	}

	ReactorMetrics reactor() {
		return this.channel.reactor();
	}

	/**
	 * The channel's writability changed.
	 */
	public void onWritabilityChanged() {
		this.response.onWritabilityChanged();
	}

	/**
	 * The connection closed or the exchange was abandoned: cancel the handler and release what it holds.
	 */
	public void cancel() {
		cancel(new IOException("Connection closed before the request completed"));
	}

	/**
	 * Abandon the exchange: the handler is cancelled, its body fails with the cause (and what of it was not
	 * handed to the handler is released, even when it had fully arrived), and nothing more it writes reaches the
	 * connection.
	 * @param cause why
	 */
	public void cancel(Throwable cause) {
		if (this.finished) {
			return;
		}
		this.finished = true;
		stopRequestTimer();
		Deferral pending = this.pending;
		if (pending != null) {
			this.pending = null;
			pending.cancel();
		}
		this.body.onError(cause);
		this.body.discard();
		this.response.abort();
		this.dispatcher.cancelled(this);
		Subscription subscription = this.handlerSubscription;
		if (subscription != null) {
			subscription.cancel();
		}
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		this.handlerSubscription = subscription;
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(Void unused) {
	}

	@Override
	public void onComplete() {
		if (this.response.eventLoop().inEventLoop()) {
			completed();
		}
		else {
			this.response.eventLoop().execute(this::completed);
		}
	}

	@Override
	public void onError(Throwable error) {
		if (this.response.eventLoop().inEventLoop()) {
			failed(error);
		}
		else {
			this.response.eventLoop().execute(() -> failed(error));
		}
	}

	private void completed() {
		if (this.finished) {
			return;
		}
		String shortfall = this.response.shortfall();
		if (shortfall != null) {
			logger.warn("The response to {} {} can not be completed: {}; closing its connection (or HTTP/2 stream)",
					this.request.getMethod(), this.request.getURI().getRawPath(), shortfall);
			failed(new IOException("Response body ended short: " + shortfall));
			return;
		}
		this.finished = true;
		stopRequestTimer();
		// Whatever of the body the handler did not take is released now, read or not, arrived or not.
		this.body.discard();
		ChannelFuture lastWrite = this.response.finish();
		this.channel.exchangeComplete(lastWrite);
		this.dispatcher.written(this, lastWrite);
	}

	private void failed(Throwable error) {
		if (this.finished) {
			return;
		}
		this.finished = true;
		stopRequestTimer();
		this.body.discard();
		if (!this.response.isHeadWritten()) {
			HttpResponseStatus status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
			if (DirectMemory.exhausted(error)) {
				status = HttpResponseStatus.SERVICE_UNAVAILABLE;
				logger.warn("{} {} found the direct memory limit reached ({}); answering 503: {}",
						this.request.getMethod(), this.request.getURI().getRawPath(), error.getMessage(),
						DirectMemory.ADVICE);
			}
			else {
				logger.warn("{} {} failed before its response was committed; answering 500", this.request.getMethod(),
						this.request.getURI().getRawPath(), error);
			}
			ChannelFuture lastWrite = this.response.writeError(status);
			this.channel.exchangeComplete(lastWrite);
			this.dispatcher.written(this, lastWrite);
		}
		else {
			logger.debug("{} {} failed after its response was committed; closing the connection",
					this.request.getMethod(), this.request.getURI().getRawPath(), error);
			this.response.abort();
			this.dispatcher.written(this, null);
			this.channel.abort(error);
		}
	}

}
