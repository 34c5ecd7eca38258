package io.khamsin.container.bridge;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

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

/**
 * One request and its response, from the decoded request head to the last byte of the answer, carried by an
 * {@link ExchangeChannel}. Subscribes the Spring {@link HttpHandler}; an error before the response head is
 * written becomes a 500, an error after it aborts the connection, and the server goes on serving. Whatever of
 * the request body the handler did not take is released when the exchange ends, whichever way it ends.
 */
public final class HttpExchange implements CoreSubscriber<Void> {

	private static final Logger logger = LoggerFactory.getLogger(HttpExchange.class);

	private final ExchangeChannel channel;

	private final KhamsinServerHttpRequest request;

	private final KhamsinServerHttpResponse response;

	private final InboundPublisher<DataBuffer> body;

	private final NettyDataBufferFactory bufferFactory;

	private Subscription handlerSubscription;

	private boolean finished;

	private HttpExchange(ExchangeChannel channel, HttpRequest nettyRequest, URI uri, NettyDataBufferFactory bufferFactory,
			long sequence) {
		this.channel = channel;
		this.bufferFactory = bufferFactory;
		this.body = new InboundPublisher<>(channel, channel.channel().eventLoop(), DataBufferUtils::release);
		this.request = new KhamsinServerHttpRequest(nettyRequest, uri, channel.channel(), this.body, sequence);
		this.response = KhamsinServerHttpResponse.create(channel, bufferFactory,
				nettyRequest.method().equals(HttpMethod.HEAD));
	}

	/**
	 * Create the exchange of a decoded request head.
	 * @param channel the protocol that carries it
	 * @param request the request head
	 * @param scheme {@code http} or {@code https}
	 * @param uris the connection's request URIs
	 * @param bufferFactory the factory of the connection's buffers
	 * @param sequence the number of the request on its connection
	 * @return the exchange
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	public static HttpExchange create(ExchangeChannel channel, HttpRequest request, String scheme, RequestUris uris,
			NettyDataBufferFactory bufferFactory, long sequence) throws URISyntaxException {
		URI uri = uris.uriOf(request, channel.channel(), scheme);
		return new HttpExchange(channel, request, uri, bufferFactory, sequence);
	}

	/**
	 * Hand the exchange to the handler.
	 * @param handler the Spring handler
	 */
	public void start(HttpHandler handler) {
		try {
			handler.handle(this.request, this.response).subscribe(this);
		}
		catch (Throwable ex) {
			onError(ex);
		}
	}

	/**
	 * A part of the request body arrived; its bytes now belong to the exchange.
	 * @param content the part
	 */
	public void onContent(HttpContent content) {
		ByteBuf bytes = content.content();
		if (bytes.isReadable()) {
			this.body.onPart(this.bufferFactory.wrap(bytes));
		}
		else {
			bytes.release();
		}
		if (content instanceof LastHttpContent) {
			this.body.onComplete();
		}
	}

	/**
	 * The handler will not read the rest of the body: drop it.
	 */
	public void discardBody() {
		this.body.discard();
	}

	/** @return whether the whole request body has arrived */
	public boolean isBodyComplete() {
		return this.body.isComplete();
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

	/** @return the response's {@code Content-Length} header, or {@code null} */
	public String responseContentLength() {
		return this.response.contentLength();
	}

	/** @return whether the response head was handed to the channel */
	public boolean isResponseStarted() {
		return this.response.isHeadWritten();
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
		this.body.onError(cause);
		this.body.discard();
		this.response.abort();
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
		this.finished = true;
		// Whatever of the body the handler did not take is released now, read or not, arrived or not.
		this.body.discard();
		ChannelFuture lastWrite = this.response.finish();
		this.channel.exchangeComplete(lastWrite);
	}

	private void failed(Throwable error) {
		if (this.finished) {
			return;
		}
		this.finished = true;
		this.body.discard();
		if (!this.response.isHeadWritten()) {
			logger.warn("{} {} failed before its response was committed; answering 500", this.request.getMethod(),
					this.request.getURI().getRawPath(), error);
			this.channel.exchangeComplete(this.response.writeError(HttpResponseStatus.INTERNAL_SERVER_ERROR));
		}
		else {
			logger.debug("{} {} failed after its response was committed; closing the connection",
					this.request.getMethod(), this.request.getURI().getRawPath(), error);
			this.response.abort();
			this.channel.abort(error);
		}
	}

}
