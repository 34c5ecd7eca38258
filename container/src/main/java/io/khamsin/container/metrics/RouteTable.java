package io.khamsin.container.metrics;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The routes seen so far, bounded: a new pattern gets the next free index until {@code maxRoutes} are taken, and
 * {@link Route#OTHER} after that, so that a mapping with many patterns cannot grow the figures without end.
 * Looking up a pattern seen before is one hash map read keyed by the pattern object WebFlux already holds
 * (a {@code PathPattern} or a string), which allocates nothing.
 */
final class RouteTable {

	private final int maxRoutes;

	private final ConcurrentHashMap<Object, Route> byPattern = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<String, Route> byName = new ConcurrentHashMap<>();

	private final AtomicReferenceArray<Route> byIndex;

	private int next = Route.FIXED_ROUTES.length;

	RouteTable(int maxRoutes) {
		this.maxRoutes = maxRoutes;
		this.byIndex = new AtomicReferenceArray<>(capacity());
		for (Route route : Route.FIXED_ROUTES) {
			this.byIndex.set(route.index(), route);
			this.byName.put(route.name(), route);
		}
	}

	/** @return the number of route indexes, the fixed routes included */
	int capacity() {
		return Route.FIXED_ROUTES.length + this.maxRoutes;
	}

	/**
	 * The route of a pattern, interned on first sight.
	 * @param pattern WebFlux's best matching pattern, or {@code null}
	 * @return the route, {@link Route#OTHER} for {@code null} or when the table is full
	 */
	Route resolve(Object pattern) {
		if (pattern == null) {
			return Route.OTHER;
		}
		if (pattern instanceof Route route) {
			return route;
		}
		Route route = this.byPattern.get(pattern);
		return (route != null) ? route : intern(pattern);
	}

	private synchronized Route intern(Object pattern) {
		Route route = this.byPattern.get(pattern);
		if (route != null) {
			return route;
		}
		String name = pattern.toString();
		route = this.byName.get(name);
		if (route == null) {
			if (this.next >= capacity()) {
				route = Route.OTHER;
			}
			else {
				route = new Route(name, this.next++);
				this.byIndex.set(route.index(), route);
				this.byName.put(name, route);
			}
		}
		if (this.byPattern.size() < 4 * capacity()) {
			this.byPattern.put(pattern, route);
		}
		return route;
	}

	/**
	 * The route of an index.
	 * @param index the index
	 * @return the route, or {@code null} if none has it yet
	 */
	Route route(int index) {
		return this.byIndex.get(index);
	}

}
