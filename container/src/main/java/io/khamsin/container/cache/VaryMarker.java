package io.khamsin.container.cache;

import java.util.List;

/**
 * Kept under a page's key when its response names {@code Vary}: which request headers pick the entry, so that a
 * lookup reads them and finds the entry under the page key and their values.
 *
 * @param page the page key
 * @param names the request headers, lower case and sorted
 * @param untilMillis when the last variant stored with these names stops being servable
 */
record VaryMarker(String page, List<String> names, long untilMillis) implements Stored {

	@Override
	public int weight() {
		int weight = 64 + 2 * this.page.length();
		for (String name : this.names) {
			weight += 16 + 2 * name.length();
		}
		return weight;
	}

	@Override
	public long keepNanos(long nowMillis) {
		return Math.max(0, this.untilMillis - nowMillis) * 1_000_000L;
	}

	@Override
	public void dropped() {
	}

}
