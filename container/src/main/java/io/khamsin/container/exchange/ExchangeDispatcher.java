package io.khamsin.container.exchange;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.accesslog.AccessLog;
import io.khamsin.container.bridge.BodyCompression;
import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.bridge.RequestUris;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.egress.EgressCounters;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.fixed.FixedResponseTable;
import io.khamsin.container.forwarded.ForwardedConfig;
import io.khamsin.container.forwarded.ForwardedHeaders;
import io.khamsin.container.forwarded.RequestOrigin;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.guard.OverloadConfig;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.metrics.RequestPath;
import io.khamsin.container.metrics.Route;

/**
 * The exchange stage, one for every protocol: what happens to a request head once its protocol has decoded it. In
 * order: the request's guards (an expectation, the announced size of its body), a fixed response, the server-wide
 * {@code OPTIONS *}, the page cache ({@link PageCacheStage}, when the server has one), and otherwise an
 * {@link HttpExchange} with the Spring handler, whose request takes its scheme, host, port, client address and
 * context path from the forwarded headers of trusted proxies where the server applies them. It
 * keeps the request's clock (from the head's first byte to the last byte of the answer handed to the kernel), counts
 * it on its reactor, and writes its access log line, for the answers it gives itself, for the refusals of the
 * protocols and for the exchanges alike. One per server, shared by its connections; it holds no state of a request.
 */
public final class ExchangeDispatcher {

	private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory();

	private static final String ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

	private final HttpHandler handler;

	private final RequestGuards requestGuards;

	private final GuardCounters guards;

	private final long requestTimeoutNanos;

	private final FixedResponseTable fixedResponses;

	private final Admission admission;

	/** The {@code Retry-After} of a request refused past capacity, or {@code null} without admission control. */
	private final String retryAfter;

	private final AccessLog accessLog;

	private final boolean timed;

	private final BodyCompression compression;

	private final EgressCounters egress;

	private final ForwardedHeaders forwarded;

	private final PageCacheStage pageCache;

	private final NettyDataBufferFactory bufferFactory = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

	private final Map<ByteBufAllocator, NettyDataBufferFactory> otherFactories = new ConcurrentHashMap<>();

	/**
	 * Create the exchange stage of a server.
	 * @param context what the server's connections share
	 * @param fixedResponses the answers given without entering the handler
	 * @param compression the compression of response bodies
	 * @param forwarded whether and from which proxies forwarded headers are applied
	 * @param pageCache the page cache, or {@code null} for none
	 * @param overload the admission control of requests for the handler
	 */
	public ExchangeDispatcher(ServerContext context, List<FixedResponse> fixedResponses, CompressionConfig compression,
			ForwardedConfig forwarded, DefaultPageCache pageCache, OverloadConfig overload) {
		this.handler = context.handler();
		this.requestGuards = new RequestGuards(context.guards(), context.settings().maxRequestBodySize());
		this.guards = context.guards();
		Duration requestTimeout = context.settings().requestTimeout();
		this.requestTimeoutNanos = (requestTimeout != null) ? requestTimeout.toNanos() : 0;
		this.fixedResponses = FixedResponseTable.of(fixedResponses, overload.enabled() ? refusal(overload) : null,
				context.settings().serverHeader(), context.settings().altSvc());
		this.admission = Admission.of(overload, context.guards());
		this.retryAfter = overload.enabled() ? overload.retryAfterSeconds() : null;
		this.accessLog = context.accessLog();
		this.timed = context.metrics().enabled() || this.accessLog != null;
		this.compression = BodyCompression.of(compression);
		this.egress = context.metrics().egress();
		this.forwarded = forwarded.enabled() ? new ForwardedHeaders(forwarded) : null;
		this.pageCache = (pageCache != null && pageCache.config().enabled()) ? new PageCacheStage(this, pageCache)
				: null;
	}

	private static FixedResponse refusal(OverloadConfig overload) {
		// The table never looks this entry up by its path.
		return new FixedResponse("/", HttpResponseStatus.SERVICE_UNAVAILABLE.code(), null, null,
				Map.of(HttpHeaderNames.RETRY_AFTER.toString(), overload.retryAfterSeconds()));
	}

	/** @return how long a handler may take to begin its response ({@code khamsin.request-timeout}); 0 for ever */
	long requestTimeoutNanos() {
		return this.requestTimeoutNanos;
	}

	/** @return the server's guard counters */
	GuardCounters guards() {
		return this.guards;
	}

	/** @return the fixed responses, for each protocol to encode once */
	public FixedResponseTable fixedResponses() {
		return this.fixedResponses;
	}

	/**
	 * Whether requests are timed or logged: a protocol reads the clock at the first byte of a head only then.
	 * @return {@code true} if they are
	 */
	public boolean timed() {
		return this.timed;
	}

	/**
	 * A request head arrived: refuse it, answer it here, or make its exchange. An answer given here ends with the
	 * channel's {@link ExchangeChannel#exchangeComplete}, a refusal with its {@link ExchangeChannel#refuse}, both
	 * before this returns.
	 * @param channel the protocol that carries it, in the state to answer it
	 * @param request the request head
	 * @param bodyLength the length its head announces for its body, {@code 0} for none, {@code -1} when not announced
	 * @param startNanos {@link System#nanoTime()} at the first byte of the head, when {@link #timed()}
	 * @param sequence the number of the request on its connection
	 * @return the exchange, which the protocol starts once it is ready for its body and answer; {@code null} when
	 * the request was answered or refused here
	 */
	public HttpExchange dispatch(ExchangeChannel channel, HttpRequest request, long bodyLength, long startNanos,
			long sequence) {
		HttpResponseStatus refusal = this.requestGuards.refusal(request, bodyLength);
		if (refusal != null) {
			refuse(channel, request, refusal, startNanos);
			return null;
		}
		FixedResponseTable.Entry fixed = (bodyLength == 0) ? this.fixedResponses.lookup(request) : null;
		if (fixed != null) {
			answer(channel, request, fixed, Route.FIXED, startNanos);
			return null;
		}
		if ("*".equals(request.uri())) {
			answerAsteriskForm(channel, request, startNanos);
			return null;
		}
		// The page cache, for every protocol: a hit is answered as a fixed response is, a miss goes on to the
		// exchange, whose response the cache stores on its way out.
		PageCacheStage pageCache = this.pageCache;
		if (pageCache != null && pageCache.covers(request)) {
			return pageCache.dispatch(channel, request, startNanos, sequence);
		}
		return exchange(channel, request, startNanos, sequence, null);
	}

	/**
	 * The exchange of a request that goes to the handler, or its refusal when its target is not a URI.
	 * @param deferral what the exchange waits for before the handler starts, or {@code null}
	 * @return the exchange, or {@code null} when the request was refused
	 */
	HttpExchange exchange(ExchangeChannel channel, HttpRequest request, long startNanos, long sequence,
			Deferral deferral) {
		// A request that waits for another's render costs its reactor nothing until then: it is not refused.
		if (this.admission != null && deferral == null && !this.admission.admits(channel.channel().eventLoop())) {
			shed(channel, request, startNanos);
			return null;
		}
		HttpExchange exchange = newExchange(channel, request, startNanos, sequence, deferral, false);
		if (exchange != null) {
			channel.reactor().requestStarted();
		}
		return exchange;
	}

	/**
	 * The exchange of a render no client waits for (a stale page rendered again for the page cache): neither
	 * counted nor logged.
	 * @return the exchange, or {@code null} when the request's target is not a URI
	 */
	HttpExchange background(ExchangeChannel channel, HttpRequest request) {
		return newExchange(channel, request, System.nanoTime(), 0, null, true);
	}

	private HttpExchange newExchange(ExchangeChannel channel, HttpRequest request, long startNanos, long sequence,
			Deferral deferral, boolean background) {
		ConnectionInfo connection = channel.connection();
		// server.forward-headers-strategy=native: where the client's proxies say it came from, if they are trusted.
		RequestOrigin origin = origin(request, connection);
		URI uri;
		try {
			uri = RequestUris.of(request, connection, origin);
		}
		catch (URISyntaxException | IllegalArgumentException ex) {
			if (!background) {
				refuse(channel, request, this.requestGuards.refuseTarget(request, ex.getMessage()), startNanos);
			}
			return null;
		}
		return new HttpExchange(this, channel, request, uri, origin, bufferFactory(channel.channel().alloc()), sequence,
				startNanos, deferral, background);
	}

	private RequestOrigin origin(HttpRequest request, ConnectionInfo connection) {
		return (this.forwarded != null) ? this.forwarded.resolve(request.headers(), connection.scheme(),
				connection.remoteAddress(), connection.localAddress()) : null;
	}

	/**
	 * The protocol refused a request before it reached this stage: a head it could not read, a version it does not
	 * serve, a head that came too slowly. Counted as a request and logged.
	 * @param channel the protocol that refused it
	 * @param request the request head, or {@code null} when none could be read
	 * @param status the status it answered
	 * @param write the future of the answer's write
	 * @param startNanos {@link System#nanoTime()} at the first byte of the head, when {@link #timed()}
	 */
	public void refused(ExchangeChannel channel, HttpRequest request, HttpResponseStatus status, ChannelFuture write,
			long startNanos) {
		ReactorMetrics reactor = channel.reactor();
		reactor.requestStarted();
		reactor.requestEnded();
		log(write, request, channel.connection().remoteAddress(), status.code(), "0", startNanos);
	}

	/**
	 * The protocol refused the rest of an exchange it had cancelled (a body that stalled, or grew too large): the
	 * exchange was counted; its refusal is logged.
	 * @param exchange the cancelled exchange
	 * @param status the status the protocol answered
	 * @param write the future of the answer's write
	 */
	public void refused(HttpExchange exchange, HttpResponseStatus status, ChannelFuture write) {
		log(write, exchange.head(), exchange.remoteAddress(), status.code(), "0", exchange.startNanos());
	}

	/**
	 * A body part of an exchange arrived: whether the body is still within {@code khamsin.max-request-body-size}.
	 * @param exchange the exchange
	 * @param received the bytes of its body received so far, this part included
	 * @return {@code null} if it is, else the status to refuse the request with (counted as its guard)
	 */
	public HttpResponseStatus checkBody(HttpExchange exchange, long received) {
		return this.requestGuards.checkBody(received);
	}

	HttpHandler handler() {
		return this.handler;
	}

	/** @return where the way each file body leaves is counted */
	EgressCounters egress() {
		return this.egress;
	}

	/** @return the server's response compression, or {@code null} when it does not compress */
	BodyCompression compression() {
		return this.compression;
	}

	/**
	 * An exchange wrote its last response bytes: its latency is recorded when that write completes, and its line
	 * logged. What waits for the write is its clock, not the exchange, which is garbage from here on.
	 */
	void written(HttpExchange exchange, ChannelFuture lastWrite) {
		if (exchange.isBackground()) {
			return;
		}
		ReactorMetrics reactor = exchange.reactor();
		if (lastWrite == null || lastWrite.isVoid()) {
			reactor.requestEnded();
			return;
		}
		lastWrite.addListener(new WriteClock(reactor, reactor.latencyKey(exchange.connection().protocol(),
				exchange.status(), exchange.route(), RequestPath.HANDLER), exchange.startNanos()));
		log(lastWrite, exchange.head(), exchange.remoteAddress(), exchange.status(), exchange.responseContentLength(),
				exchange.startNanos());
	}

	/** An exchange was cancelled before its response was out. */
	void cancelled(HttpExchange exchange) {
		if (exchange.isBackground()) {
			return;
		}
		exchange.reactor().requestEnded();
	}

	private void refuse(ExchangeChannel channel, HttpRequest request, HttpResponseStatus status, long startNanos) {
		refused(channel, request, status, channel.refuse(status), startNanos);
	}

	/**
	 * Refuse a request for the handler because its reactor is past its capacity: the fixed {@code 503} with
	 * {@code Retry-After}, on a connection that goes on, when it has no body; with a body, which an HTTP/1.1
	 * connection would have to read before its next request, as the guards refuse.
	 */
	private void shed(ExchangeChannel channel, HttpRequest request, long startNanos) {
		if (HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0) {
			HttpResponseStatus status = HttpResponseStatus.SERVICE_UNAVAILABLE;
			refused(channel, request, status, channel.refuse(status, this.retryAfter), startNanos);
			return;
		}
		answer(channel, request, this.fixedResponses.overload(), null, startNanos);
	}

	private void answer(ExchangeChannel channel, HttpRequest request, FixedResponseTable.Entry fixed, Route route,
			long startNanos) {
		ReactorMetrics reactor = channel.reactor();
		reactor.requestStarted();
		ChannelPromise clock = this.timed ? new TimedPromise(channel.channel(), reactor,
				reactor.latencyKey(channel.connection().protocol(), fixed.status(), route, RequestPath.FAST),
				startNanos) : null;
		ChannelFuture write = channel.writeFixed(fixed, HttpMethod.HEAD.equals(request.method()), clock);
		log(write, request, channel.connection().remoteAddress(), fixed.status(), fixed.contentLength(), startNanos);
		channel.exchangeComplete(write);
	}

	private void answerAsteriskForm(ExchangeChannel channel, HttpRequest request, long startNanos) {
		// RFC 9112, section 3.2.4: the asterisk form is only for a server-wide OPTIONS.
		if (!HttpMethod.OPTIONS.equals(request.method())) {
			refuse(channel, request, this.requestGuards.refuseTarget(request, "the asterisk form is only for OPTIONS"),
					startNanos);
			return;
		}
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
				Unpooled.EMPTY_BUFFER, HEADERS.newHeaders(), EmptyHttpHeaders.INSTANCE);
		response.headers().set(HttpHeaderNames.ALLOW, ALLOWED_METHODS).setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
		ReactorMetrics reactor = channel.reactor();
		reactor.requestStarted();
		channel.prepareHead(response, false);
		ChannelPromise clock = new TimedPromise(channel.channel(), reactor,
				reactor.latencyKey(channel.connection().protocol(), 200, null, RequestPath.HANDLER), startNanos);
		ChannelFuture write = channel.write(response, true, clock);
		log(write, request, channel.connection().remoteAddress(), 200, "0", startNanos);
		channel.exchangeComplete(write);
	}

	/** @return whether answers are written to an access log */
	boolean logs() {
		return this.accessLog != null;
	}

	void log(ChannelFuture write, HttpRequest request, InetSocketAddress remoteAddress, int status,
			String contentLength, long startNanos) {
		if (this.accessLog != null && !write.isVoid()) {
			this.accessLog.log(write, request, remoteAddress, status, contentLength, startNanos);
		}
	}

	private NettyDataBufferFactory bufferFactory(ByteBufAllocator alloc) {
		// The shared factory serves connections on the server's allocator; a customized allocator gets its own.
		return (alloc == this.bufferFactory.getByteBufAllocator()) ? this.bufferFactory
				: this.otherFactories.computeIfAbsent(alloc, NettyDataBufferFactory::new);
	}

}
