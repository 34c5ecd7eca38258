package io.khamsin.container.cache;

import java.util.List;

/**
 * The page cache as an application sees it: purges and figures. A page's key reads
 * {@code scheme://host/path?query}, e.g. {@code https://shop.example/page/42?lang=en}; one key covers the page's
 * {@code Vary} variants, its {@code HEAD} and its compressed variants. With a shared tier, every purge also
 * removes the entries from it and reaches every instance.
 */
public interface PageCache {

	/**
	 * Drop one page. A key that starts with {@code /} (path and query) drops that page on every host.
	 * @param key the page key, or its path and query
	 * @return the entries dropped from this instance's memory
	 */
	long purgeKey(String key);

	/**
	 * Drop every page whose key starts with a prefix. A prefix that starts with {@code /} is matched against path
	 * and query, on every host.
	 * @param prefix the prefix
	 * @return the entries dropped from this instance's memory
	 */
	long purgePrefix(String prefix);

	/**
	 * Drop every page tagged so by its response's tag header ({@code Cache-Tag} unless configured otherwise).
	 * @param tag the tag
	 * @return the entries dropped from this instance's memory
	 */
	long purgeTag(String tag);

	/**
	 * Drop every page.
	 * @return the entries dropped from this instance's memory
	 */
	long purgeAll();

	/** @return the figures since start */
	PageCacheFigures figures();

	/**
	 * The keys with the most hits among those held now.
	 * @param limit how many
	 * @return them, most hits first
	 */
	List<TopKey> topKeys(int limit);

}
