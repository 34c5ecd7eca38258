package io.khamsin.boot.resources;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * {@code If-Range} (RFC 9110, section 13.1.5), which Spring's resource handling does not read: a {@code GET} with
 * {@code Range} and {@code If-Range} gets its range only while {@code If-Range} matches the validator the handler put
 * on the response (a strong {@code ETag} compared strongly, or a date equal to a {@code Last-Modified} at least a
 * second old, so that it is strong); otherwise the
 * handler does not see the {@code Range} and answers with the whole representation, so that a client resuming a
 * download of a file that changed never joins bytes of two versions.
 * <p>
 * The handler reads {@code Range} after it set its validators (Spring's {@code ResourceWebHandler} checks
 * {@code If-None-Match} and {@code If-Modified-Since}, which sets them, before it writes), so the decision is taken
 * each time the request's headers are read. Requests without {@code If-Range} pass through untouched.
 */
public final class IfRangeWebFilter implements WebFilter, Ordered {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		HttpHeaders headers = request.getHeaders();
		if (request.getMethod() != HttpMethod.GET || !headers.containsHeader(HttpHeaders.IF_RANGE)
				|| !headers.containsHeader(HttpHeaders.RANGE)) {
			return chain.filter(exchange);
		}
		return chain.filter(exchange.mutate().request(new ConditionalRange(request, exchange.getResponse())).build());
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/**
	 * Whether an {@code If-Range} value matches a response's validators.
	 * @param condition the {@code If-Range} value
	 * @param response the response's headers
	 * @return {@code true} if the range may be served
	 */
	static boolean matches(String condition, HttpHeaders response) {
		return matches(condition, response, System.currentTimeMillis());
	}

	/**
	 * Whether an {@code If-Range} value matches a response's validators, at a given time.
	 * @param condition the {@code If-Range} value
	 * @param response the response's headers
	 * @param now the time of the response, in milliseconds since the epoch
	 * @return {@code true} if the range may be served
	 */
	static boolean matches(String condition, HttpHeaders response, long now) {
		String value = condition.trim();
		if (value.startsWith("\"")) {
			// An entity tag, compared strongly: a weak one on either side never matches.
			String etag = response.getETag();
			return etag != null && !etag.startsWith("W/") && etag.equals(value);
		}
		if (value.startsWith("W/") || value.isEmpty()) {
			return false;
		}
		long lastModified = response.getLastModified();
		if (lastModified < 0 || now - lastModified < 1000) {
			// A date is a strong validator only once a second has passed since it (RFC 9110, section 8.8.2.2): a
			// file written twice within that second keeps its Last-Modified.
			return false;
		}
		HttpHeaders date = new HttpHeaders();
		date.set(HttpHeaders.IF_RANGE, value);
		try {
			return date.getFirstDate(HttpHeaders.IF_RANGE) == (lastModified / 1000) * 1000;
		}
		catch (IllegalArgumentException ex) {
			// Neither an entity tag nor an HTTP date: the condition can not hold.
			return false;
		}
	}

	/** The request as the handler sees it: its {@code Range} only while {@code If-Range} matches. */
	private static final class ConditionalRange extends ServerHttpRequestDecorator {

		private final ServerHttpResponse response;

		private final String condition;

		private HttpHeaders withoutRange;

		ConditionalRange(ServerHttpRequest request, ServerHttpResponse response) {
			super(request);
			this.response = response;
			this.condition = request.getHeaders().getFirst(HttpHeaders.IF_RANGE);
		}

		@Override
		public HttpHeaders getHeaders() {
			if (matches(this.condition, this.response.getHeaders())) {
				return super.getHeaders();
			}
			HttpHeaders withoutRange = this.withoutRange;
			if (withoutRange == null) {
				withoutRange = HttpHeaders.copyOf(super.getHeaders());
				withoutRange.remove(HttpHeaders.RANGE);
				this.withoutRange = HttpHeaders.readOnlyHttpHeaders(withoutRange);
				withoutRange = this.withoutRange;
			}
			return withoutRange;
		}

	}

}
