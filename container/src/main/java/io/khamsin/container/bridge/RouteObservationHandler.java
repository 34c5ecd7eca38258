package io.khamsin.container.bridge;

import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

import io.khamsin.container.metrics.Route;

/**
 * Lets khamsin tag a request's figures with WebFlux's best matching pattern, as {@link RouteWebFilter} does, from
 * the start of the request's {@code http.server.requests} observation instead of from a web filter: WebFlux wraps
 * each web filter's answer in a checkpoint (a string, an assembly snapshot and an operator per request, about
 * 550 bytes measured), while an observation handler is one call. It needs an observation registry with handlers,
 * as Spring Boot's actuator gives; a request whose observation is switched off is tagged {@link Route#OTHER}.
 */
public final class RouteObservationHandler implements ObservationHandler<ServerRequestObservationContext> {

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof ServerRequestObservationContext;
	}

	@Override
	public void onStart(ServerRequestObservationContext context) {
		handOver(context.getCarrier(), context.getAttributes());
	}

	/**
	 * Hands the exchange's attributes, where the handler mapping will put the best matching pattern, to khamsin's
	 * request under {@code request}'s decorators; nothing when another server made the request.
	 * @param request the request, perhaps decorated
	 * @param attributes the exchange's attributes
	 */
	static void handOver(ServerHttpRequest request, Map<String, Object> attributes) {
		while (request instanceof ServerHttpRequestDecorator decorator) {
			request = decorator.getDelegate();
		}
		if (request instanceof KhamsinServerHttpRequest khamsin) {
			khamsin.exchangeAttributes(attributes);
		}
	}

}
