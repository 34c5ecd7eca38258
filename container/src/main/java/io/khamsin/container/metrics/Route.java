package io.khamsin.container.metrics;

/**
 * A route as tagged in the figures: WebFlux's best matching pattern of a request (e.g. {@code /page/{id}}), or
 * one of the fixed routes below. Routes are interned by {@link RouteTable}, so each has a small index that the
 * recorders use instead of its name.
 */
public final class Route {

	/** Answered by a fixed response. */
	public static final Route FIXED = new Route("fixed", 0);

	/** Answered from the page cache. */
	public static final Route CACHE = new Route("cache", 1);

	/** A static file served by the engine. */
	public static final Route STATIC = new Route("static", 2);

	/** No pattern matched (e.g. a 404), or the table of routes is full. */
	public static final Route OTHER = new Route("other", 3);

	static final Route[] FIXED_ROUTES = { FIXED, CACHE, STATIC, OTHER };

	private final String name;

	private final int index;

	Route(String name, int index) {
		this.name = name;
		this.index = index;
	}

	/** @return the tag value */
	public String name() {
		return this.name;
	}

	int index() {
		return this.index;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
