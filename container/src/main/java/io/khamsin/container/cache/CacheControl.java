package io.khamsin.container.cache;

import java.util.List;
import java.util.Locale;

/**
 * The directives of a {@code Cache-Control} field that a shared cache acts on (RFC 9111, section 5.2; RFC 5861).
 * A qualified {@code private="..."} or {@code no-cache="..."} counts as the unqualified directive: the cache does
 * not strip fields, so it does not store such a response at all.
 *
 * @param isPublic {@code public}
 * @param isPrivate {@code private}
 * @param noStore {@code no-store}
 * @param noCache {@code no-cache}
 * @param mustRevalidate {@code must-revalidate} or {@code proxy-revalidate}: never served stale
 * @param maxAge {@code max-age} in seconds, or {@code -1}
 * @param sMaxAge {@code s-maxage} in seconds, or {@code -1}
 * @param staleWhileRevalidate {@code stale-while-revalidate} in seconds, or {@code -1}
 * @param staleIfError {@code stale-if-error} in seconds, or {@code -1}
 */
record CacheControl(boolean isPublic, boolean isPrivate, boolean noStore, boolean noCache, boolean mustRevalidate,
		long maxAge, long sMaxAge, long staleWhileRevalidate, long staleIfError) {

	/** The largest delta-seconds a cache needs to tell apart (RFC 9111, section 1.2.2). */
	static final long MAX_DELTA_SECONDS = 1L << 31;

	static final CacheControl NONE = new CacheControl(false, false, false, false, false, -1, -1, -1, -1);

	/**
	 * Parse every value of the field.
	 * @param values the field's values, possibly none
	 * @return the directives
	 */
	static CacheControl parse(List<String> values) {
		if (values == null || values.isEmpty()) {
			return NONE;
		}
		boolean isPublic = false;
		boolean isPrivate = false;
		boolean noStore = false;
		boolean noCache = false;
		boolean mustRevalidate = false;
		long maxAge = -1;
		long sMaxAge = -1;
		long swr = -1;
		long sie = -1;
		for (String value : values) {
			for (String directive : value.split(",")) {
				String trimmed = directive.trim();
				if (trimmed.isEmpty()) {
					continue;
				}
				int equals = trimmed.indexOf('=');
				String name = ((equals < 0) ? trimmed : trimmed.substring(0, equals)).trim().toLowerCase(Locale.ROOT);
				String argument = (equals < 0) ? null : unquote(trimmed.substring(equals + 1).trim());
				switch (name) {
					case "public" -> isPublic = true;
					case "private" -> isPrivate = true;
					case "no-store" -> noStore = true;
					case "no-cache" -> noCache = true;
					case "must-revalidate", "proxy-revalidate" -> mustRevalidate = true;
					case "max-age" -> maxAge = seconds(argument, maxAge);
					case "s-maxage" -> sMaxAge = seconds(argument, sMaxAge);
					case "stale-while-revalidate" -> swr = seconds(argument, swr);
					case "stale-if-error" -> sie = seconds(argument, sie);
					default -> {
					}
				}
			}
		}
		return new CacheControl(isPublic, isPrivate, noStore, noCache, mustRevalidate, maxAge, sMaxAge, swr, sie);
	}

	private static String unquote(String value) {
		return (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"')
				? value.substring(1, value.length() - 1) : value;
	}

	private static long seconds(String argument, long previous) {
		if (argument == null) {
			return previous;
		}
		long seconds = deltaSeconds(argument);
		// RFC 9111, section 4.2.1: when a directive appears twice, the cache may take the most restrictive.
		return (previous < 0) ? seconds : Math.min(previous, seconds);
	}

	/**
	 * A delta-seconds value (RFC 9111, section 1.2.2): ASCII digits, taken as at most 2^31, so that a lifetime in
	 * milliseconds can not overflow; anything else is zero.
	 * @param value the value
	 * @return the seconds, from 0 to 2^31
	 */
	static long deltaSeconds(String value) {
		long seconds = 0;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!isDigit(c)) {
				return 0;
			}
			seconds = Math.min(seconds * 10 + (c - '0'), MAX_DELTA_SECONDS);
		}
		return seconds;
	}

	private static boolean isDigit(int c) {
		return c >= '0' && c <= '9';
	}

}
