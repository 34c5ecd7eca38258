package io.khamsin.container.cache;

import java.util.Locale;

/**
 * What a request's method, body, target and cache directives mean to a lookup: whether it is looked up at all
 * (else the reason, answered by one {@link Lookup.Bypass} per reason, which holds nothing of the request), and
 * whether it asks for a response the origin has just made ({@code no-cache}, RFC 9111, section 5.2.1.4).
 */
final class LookupRules {

	private static final Lookup.Bypass[] BYPASSES = bypasses();

	private LookupRules() {
	}

	/**
	 * Why a request is not looked up.
	 * @param enabled whether the page cache is on
	 * @param request the request
	 * @return the reason, or {@code null} if it is looked up
	 */
	static BypassReason bypass(boolean enabled, CacheRequest request) {
		if (!enabled) {
			return BypassReason.DISABLED;
		}
		String method = request.method();
		if (!"GET".equals(method) && !"HEAD".equals(method)) {
			return BypassReason.METHOD;
		}
		if (request.hasBody()) {
			return BypassReason.BODY;
		}
		if (request.host() == null || request.host().isEmpty() || request.path() == null) {
			return BypassReason.TARGET;
		}
		if (request.header("upgrade") != null) {
			return BypassReason.UPGRADE;
		}
		String cacheControl = request.header("cache-control");
		if (cacheControl != null && CacheControl.parse(request.headers("cache-control")).noStore()) {
			return BypassReason.NO_STORE;
		}
		return null;
	}

	/**
	 * The answer to a request that is not looked up.
	 * @param reason why
	 * @return the answer, one per reason
	 */
	static Lookup.Bypass answer(BypassReason reason) {
		return BYPASSES[reason.ordinal()];
	}

	/**
	 * Whether a request asks that a stored response not be used without the origin.
	 * @param request the request
	 * @return {@code true} for {@code Cache-Control: no-cache}, or {@code Pragma: no-cache} without Cache-Control
	 */
	static boolean noCache(CacheRequest request) {
		String cacheControl = request.header("cache-control");
		if (cacheControl != null) {
			return CacheControl.parse(request.headers("cache-control")).noCache();
		}
		// RFC 9111, section 5.4: Pragma: no-cache counts only when there is no Cache-Control.
		String pragma = request.header("pragma");
		return pragma != null && pragma.toLowerCase(Locale.ROOT).contains("no-cache");
	}

	private static Lookup.Bypass[] bypasses() {
		BypassReason[] reasons = BypassReason.values();
		Lookup.Bypass[] bypasses = new Lookup.Bypass[reasons.length];
		for (BypassReason reason : reasons) {
			bypasses[reason.ordinal()] = new Lookup.Bypass(reason);
		}
		return bypasses;
	}

}
