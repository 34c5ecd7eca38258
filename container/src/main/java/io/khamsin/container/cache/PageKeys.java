package io.khamsin.container.cache;

import java.util.List;
import java.util.Locale;

/**
 * The keys of the page cache. A page key is {@code scheme://host/path?query}; an entry's key adds the values of the
 * request headers its response's {@code Vary} names, after a {@code #}. Only {@code GET} renders are stored, and a
 * {@code HEAD} is answered from the {@code GET}'s entry, so the method is always {@code GET} and not written.
 */
final class PageKeys {

	/** Separates the page from the {@code Vary} values in an entry key and a shared-tier key. */
	static final char VARIANT_SEPARATOR = '#';

	private PageKeys() {
	}

	static String page(CacheRequest request) {
		String scheme = request.scheme();
		String host = request.host();
		String path = request.path();
		String query = request.query();
		StringBuilder key = new StringBuilder(scheme.length() + 3 + host.length() + path.length()
				+ ((query != null) ? query.length() + 1 : 0));
		key.append(scheme).append("://").append(host).append(path);
		if (query != null) {
			key.append('?').append(query);
		}
		return key.toString();
	}

	/**
	 * The {@code Vary} values of a request: each named header, lower case and sorted by name, with its values
	 * joined, so that two requests with the same values share an entry.
	 */
	static String variant(List<String> varyNames, CacheRequest request) {
		if (varyNames.isEmpty()) {
			return "";
		}
		StringBuilder variant = new StringBuilder();
		for (String name : varyNames) {
			List<String> values = request.headers(name);
			variant.append(name).append('=');
			for (int i = 0; i < values.size(); i++) {
				if (i > 0) {
					variant.append(',');
				}
				variant.append(values.get(i).trim());
			}
			variant.append('\n');
		}
		return variant.toString();
	}

	static String entryKey(String page, String variant) {
		return variant.isEmpty() ? page : page + VARIANT_SEPARATOR + variant;
	}

	static String pathAndQuery(String page) {
		int schemeEnd = page.indexOf("://");
		int start = page.indexOf('/', (schemeEnd < 0) ? 0 : schemeEnd + 3);
		return (start < 0) ? "" : page.substring(start);
	}

	static String lower(String name) {
		return name.trim().toLowerCase(Locale.ROOT);
	}

}
