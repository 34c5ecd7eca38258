package io.khamsin.container.cache;

/**
 * The conditional requests answered {@code 304} from an entry (RFC 9110, section 13.1): {@code If-None-Match} by
 * weak comparison of entity tags, else {@code If-Modified-Since} against the entry's {@code Last-Modified}.
 */
final class Conditions {

	private Conditions() {
	}

	static boolean notModified(CacheRequest request, CachedResponse entry) {
		String ifNoneMatch = request.header("if-none-match");
		if (ifNoneMatch != null) {
			// RFC 9110, section 13.2.2: If-Modified-Since is ignored when If-None-Match is present.
			return matches(ifNoneMatch, entry.etag());
		}
		String ifModifiedSince = request.header("if-modified-since");
		if (ifModifiedSince == null || entry.lastModified() < 0) {
			return false;
		}
		long since = HttpDates.parse(ifModifiedSince);
		return since >= 0 && entry.lastModified() <= since;
	}

	static boolean matches(String ifNoneMatch, String etag) {
		if (ifNoneMatch.trim().equals("*")) {
			return true;
		}
		if (etag == null) {
			return false;
		}
		String opaque = opaque(etag.trim());
		for (String candidate : ifNoneMatch.split(",")) {
			if (opaque(candidate.trim()).equals(opaque)) {
				return true;
			}
		}
		return false;
	}

	private static String opaque(String tag) {
		return tag.startsWith("W/") ? tag.substring(2) : tag;
	}

}
