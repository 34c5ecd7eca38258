package io.khamsin.container.metrics;

import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import io.khamsin.container.bridge.KhamsinServerHttpRequest;

/**
 * Lets khamsin tag a request's figures with WebFlux's best matching pattern ({@code /page/{id}} rather than
 * {@code /page/42}): hands the exchange's attributes, where the handler mapping will put the pattern, to
 * khamsin's request. One field write per request; without this filter every request is tagged
 * {@code route=other}. Spring Boot applications get it from khamsin's auto-configuration.
 */
public final class RouteWebFilter implements WebFilter, Ordered {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		while (request instanceof ServerHttpRequestDecorator decorator) {
			request = decorator.getDelegate();
		}
		if (request instanceof KhamsinServerHttpRequest khamsin) {
			khamsin.exchangeAttributes(exchange.getAttributes());
		}
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
