package io.khamsin.container.cache;

/**
 * What the local tier holds under a key: a response, or the {@code Vary} names of a page whose responses vary.
 */
sealed interface Stored permits CachedResponse, VaryMarker {

	/** @return the bytes it takes, for the weigher */
	int weight();

	/** @return how long from now the local tier keeps it, in nanoseconds */
	long keepNanos(long nowMillis);

	/** @return the page it belongs to */
	String page();

	/** The local tier dropped it. */
	void dropped();

}
