package io.khamsin.container.metrics;

/**
 * The path a request took through the engine, as tagged in the figures.
 */
public enum RequestPath {

	/** Answered with pre-encoded bytes of a fixed response. */
	FAST("fast"),

	/** Answered from the page cache. */
	CACHE_HIT("cache-hit"),

	/** Answered by the Spring handler. */
	HANDLER("handler");

	private final String tag;

	RequestPath(String tag) {
		this.tag = tag;
	}

	/** @return the tag value, e.g. {@code cache-hit} */
	public String tag() {
		return this.tag;
	}

}
