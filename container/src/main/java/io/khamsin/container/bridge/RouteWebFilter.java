package io.khamsin.container.bridge;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Lets khamsin tag a request's figures with WebFlux's best matching pattern ({@code /page/{id}} rather than
 * {@code /page/42}): hands the exchange's attributes, where the handler mapping will put the pattern, to
 * khamsin's request. One field write per request; without this filter every request is tagged
 * {@code route=other}. WebFlux wraps every web filter's answer in a checkpoint, which costs more than the field
 * write: where requests are observed, {@link RouteObservationHandler} does the same for less, and Spring Boot
 * applications get that one from khamsin's auto-configuration (this filter only when there is no observation
 * registry).
 */
public final class RouteWebFilter implements WebFilter, Ordered {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		RouteObservationHandler.handOver(exchange.getRequest(), exchange.getAttributes());
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
