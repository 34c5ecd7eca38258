package io.khamsin.container.exchange;

import java.util.concurrent.RejectedExecutionException;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

import io.khamsin.container.cache.CacheRequest;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;
import io.khamsin.container.cache.PathScope;
import io.khamsin.container.cache.Ticket;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.metrics.RequestPath;
import io.khamsin.container.metrics.Route;

/**
 * The page cache's place in the exchange stage, the same for every protocol: each request that no guard refused
 * and no fixed response answered is looked up. A hit or a {@code 304} is written by the request's protocol
 * ({@link ExchangeChannel#writeHit}, {@link ExchangeChannel#writeNotModified}) and timed as {@code path="cache-hit"},
 * never entering the handler; a miss goes to the handler through a tap that stores its response; a deferred lookup
 * becomes an exchange its protocol holds as any other until the lookup ends; a stale hit that asks for it is
 * rendered again in the background, its response written nowhere but into the cache. Present only when the server
 * has an enabled page cache, so that the requests of a server without one are not looked up at all; a request
 * outside the cache's paths ({@code khamsin.page-cache.paths}) costs a prefix comparison.
 */
final class PageCacheStage {

	private final ExchangeDispatcher dispatcher;

	private final DefaultPageCache cache;

	private final PathScope paths;

	PageCacheStage(ExchangeDispatcher dispatcher, DefaultPageCache cache) {
		this.dispatcher = dispatcher;
		this.cache = cache;
		this.paths = PathScope.of(cache.config().paths());
	}

	/**
	 * Whether a request is one the cache may answer: its target is inside the cache's paths.
	 * @param request the request head
	 * @return whether it is
	 */
	boolean covers(HttpRequest request) {
		return this.paths.includes(request.uri());
	}

	/**
	 * Look a request up and answer it, or make the exchange that renders it.
	 * @return the exchange, or {@code null} when the request was answered or refused here
	 */
	HttpExchange dispatch(ExchangeChannel channel, HttpRequest request, long startNanos, long sequence) {
		Lookup lookup = this.cache.lookup(CacheRequest.of(request, channel.connection().scheme()),
				channel.channel().eventLoop());
		if (lookup instanceof Lookup.Hit hit) {
			answer(channel, request, hit, startNanos, false);
			if (hit.revalidation() != null) {
				revalidateLater(channel, request, hit.revalidation());
			}
			return null;
		}
		if (lookup instanceof Lookup.NotModified) {
			answer(channel, request, lookup, startNanos, false);
			return null;
		}
		if (lookup instanceof Lookup.Miss miss) {
			// A refusal through the tap abandons the ticket, so that the key's waiters go on.
			return this.dispatcher.exchange(new CachingExchangeChannel(channel, miss.ticket()), request, startNanos,
					sequence, null);
		}
		if (lookup instanceof Lookup.Deferred deferred) {
			CachingExchangeChannel tap = CachingExchangeChannel.awaiting(channel);
			HttpExchange exchange = this.dispatcher.exchange(tap, request, startNanos, sequence,
					new AwaitedRender(tap, deferred));
			if (exchange == null) {
				deferred.cancel();
			}
			return exchange;
		}
		return this.dispatcher.exchange(channel, request, startNanos, sequence, null);
	}

	/**
	 * Answer a request from the cache: a hit or a {@code 304}, timed from the request's first byte to the last byte
	 * of the answer handed to the kernel, and logged.
	 * @param started whether the request was already counted as started (its exchange waited for the lookup)
	 */
	private void answer(ExchangeChannel channel, HttpRequest request, Lookup answer, long startNanos, boolean started) {
		ReactorMetrics reactor = channel.reactor();
		if (!started) {
			reactor.requestStarted();
		}
		Lookup.Hit hit = (answer instanceof Lookup.Hit found) ? found : null;
		int status = (hit != null) ? hit.entry().status() : 304;
		ChannelPromise clock = this.dispatcher.timed() ? new TimedPromise(channel.channel(), reactor,
				reactor.latencyKey(channel.connection().protocol(), status, Route.CACHE, RequestPath.CACHE_HIT),
				startNanos) : null;
		String length = (hit == null || hit.body() == null) ? "0" : null;
		if (length == null && this.dispatcher.logs()) {
			length = Integer.toString(hit.representation().length());
		}
		ChannelFuture write = (hit != null) ? channel.writeHit(hit, clock)
				: channel.writeNotModified((Lookup.NotModified) answer, clock);
		this.dispatcher.log(write, request, channel.connection().remoteAddress(), status, length, startNanos);
		channel.exchangeComplete(write);
	}

	/**
	 * The wait of an exchange whose key another request is rendering: when that render ends, the exchange renders
	 * through its tap (a miss), renders untapped (a bypass), or is answered from the cache.
	 */
	private final class AwaitedRender implements Deferral {

		private final CachingExchangeChannel tap;

		private final Lookup.Deferred lookup;

		AwaitedRender(CachingExchangeChannel tap, Lookup.Deferred lookup) {
			this.tap = tap;
			this.lookup = lookup;
		}

		@Override
		public void whenReady(HttpExchange exchange) {
			this.lookup.whenReady((lookup) -> {
				if (lookup instanceof Lookup.Miss miss) {
					this.tap.attach(miss.ticket());
					exchange.proceed();
				}
				else if (lookup instanceof Lookup.Bypass) {
					exchange.proceed();
				}
				else {
					exchange.answered();
					answer(this.tap, exchange.head(), lookup, exchange.startNanos(), true);
				}
			});
		}

		@Override
		public void cancel() {
			this.lookup.cancel();
		}

	}

	/**
	 * Render a stale page again once the hit that served it is out: a background exchange whose response only the
	 * ticket sees. The request is copied now (its head may not outlive its exchange), without its conditions, so
	 * that the application renders the whole page.
	 */
	private void revalidateLater(ExchangeChannel channel, HttpRequest request, Ticket ticket) {
		HttpRequest copy = unconditional(request);
		try {
			channel.channel().eventLoop().execute(() -> revalidate(channel, copy, ticket));
		}
		catch (RejectedExecutionException ex) {
			ticket.abandon();
		}
	}

	private void revalidate(ExchangeChannel origin, HttpRequest request, Ticket ticket) {
		HttpExchange exchange = this.dispatcher.background(CachingExchangeChannel.detached(origin, ticket), request);
		if (exchange == null) {
			ticket.abandon();
			return;
		}
		exchange.start();
		exchange.onContent(LastHttpContent.EMPTY_LAST_CONTENT);
	}

	private static HttpRequest unconditional(HttpRequest request) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders().set(request.headers());
		headers.remove(HttpHeaderNames.IF_NONE_MATCH)
			.remove(HttpHeaderNames.IF_MODIFIED_SINCE)
			.remove(HttpHeaderNames.IF_MATCH)
			.remove(HttpHeaderNames.IF_UNMODIFIED_SINCE)
			.remove(HttpHeaderNames.IF_RANGE)
			.remove(HttpHeaderNames.RANGE)
			.remove(HttpHeaderNames.CONTENT_LENGTH)
			.remove(HttpHeaderNames.TRANSFER_ENCODING);
		return new DefaultHttpRequest(request.protocolVersion(), HttpMethod.GET, request.uri(), headers);
	}

}
