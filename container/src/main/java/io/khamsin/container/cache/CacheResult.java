package io.khamsin.container.cache;

/**
 * What the page cache did for a request, as tagged in the figures ({@code result}). Each request is counted once.
 */
public enum CacheResult {

	/** Answered from a fresh entry (a {@code 304} from the cache included). */
	HIT("hit"),

	/** Rendered by the application: no entry, an expired one, or a wait that ended without one. */
	MISS("miss"),

	/** Answered from an entry past its freshness (stale-while-revalidate or stale-if-error). */
	STALE("stale"),

	/** Not looked up: not a {@code GET} or {@code HEAD}, a body, no host, or the cache is off. */
	BYPASS("bypass"),

	/** Rendered by the application, and its response may not be stored. */
	UNCACHEABLE("uncacheable");

	private final String tag;

	CacheResult(String tag) {
		this.tag = tag;
	}

	/** @return the tag value */
	public String tag() {
		return this.tag;
	}

}
