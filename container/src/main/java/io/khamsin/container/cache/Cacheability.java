package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.springframework.web.util.pattern.PathPattern;

/**
 * Whether a rendered response may be stored, and for how long it is fresh (RFC 9111, sections 3 and 4.2). A
 * response is stored when it is to a {@code GET}, its status is one of the configured ones, and it says
 * {@code public}, {@code s-maxage}, {@code max-age} or {@code Expires}, or a rule gives its path a lifetime; and
 * never when it says {@code private}, {@code no-store} or {@code no-cache}, sets a cookie, varies on {@code *}, is
 * partial, or answers a request with {@code Authorization} without saying {@code public}.
 */
final class Cacheability {

	private final PageCacheConfig config;

	private final List<PathPattern> patterns = new ArrayList<>();

	Cacheability(PageCacheConfig config) {
		this.config = config;
		for (PageCacheRule rule : config.rules()) {
			this.patterns.add(rule.compile());
		}
	}

	/**
	 * The outcome for one response.
	 *
	 * @param reason why it is not stored, or {@code null} when it is
	 * @param metadata what is stored with it, or {@code null}
	 */
	record Decision(String reason, CachedResponse.Metadata metadata) {

		boolean storable() {
			return this.reason == null;
		}

		static Decision refuse(String reason) {
			return new Decision(reason, null);
		}

	}

	/** @return the rule for a path, or {@code null} */
	PageCacheRule rule(String path) {
		for (int i = 0; i < this.patterns.size(); i++) {
			if (PageCacheRule.matches(this.patterns.get(i), path)) {
				return this.config.rules().get(i);
			}
		}
		return null;
	}

	Decision decide(CacheRequest request, int status, String[] names, String[] values, long now) {
		if (!"GET".equals(request.method())) {
			return Decision.refuse("not a GET");
		}
		if (!this.config.statuses().contains(status)) {
			return Decision.refuse("status " + status + " is not among those cached");
		}
		CacheControl cc = CacheControl.parse(all(names, values, "cache-control"));
		if (cc.noStore()) {
			return Decision.refuse("Cache-Control: no-store");
		}
		if (cc.isPrivate()) {
			return Decision.refuse("Cache-Control: private");
		}
		if (cc.noCache()) {
			return Decision.refuse("Cache-Control: no-cache (every use would need a revalidation)");
		}
		if (first(names, values, "set-cookie") != null) {
			return Decision.refuse("Set-Cookie");
		}
		if (first(names, values, "content-range") != null) {
			return Decision.refuse("a partial response");
		}
		if (request.header("authorization") != null && !cc.isPublic()) {
			// RFC 9111, section 3.5: an authenticated response is shared only when it says so.
			return Decision.refuse("a request with Authorization whose response does not say public");
		}
		List<String> vary = varyNames(all(names, values, "vary"));
		if (vary == null) {
			return Decision.refuse("Vary: *");
		}
		long date = HttpDates.parse(first(names, values, "date"));
		PageCacheRule rule = rule(request.path());
		long fresh;
		if (rule != null && !rule.respectsCacheControl()) {
			fresh = rule.ttl().toMillis();
		}
		else if (cc.sMaxAge() >= 0) {
			fresh = cc.sMaxAge() * 1000;
		}
		else if (cc.maxAge() >= 0) {
			fresh = cc.maxAge() * 1000;
		}
		else if (first(names, values, "expires") != null) {
			// RFC 9111, section 5.3: an invalid Expires is in the past.
			long expires = HttpDates.parse(first(names, values, "expires"));
			fresh = (expires < 0) ? 0 : expires - ((date >= 0) ? date : now);
		}
		else if (cc.isPublic()) {
			fresh = this.config.defaultTtl().toMillis();
		}
		else {
			return Decision.refuse("no public, s-maxage, max-age or Expires, and no rule with a lifetime");
		}
		long swr = cc.mustRevalidate() ? 0 : window(cc.staleWhileRevalidate(), this.config.staleWhileRevalidate().toMillis());
		long sie = cc.mustRevalidate() ? 0 : window(cc.staleIfError(), this.config.staleIfError().toMillis());
		if (fresh <= 0 && swr <= 0 && sie <= 0) {
			return Decision.refuse("already stale");
		}
		long age = Math.max(0, parseSeconds(first(names, values, "age")) * 1000);
		long apparentAge = (date >= 0) ? Math.max(0, now - date) : 0;
		boolean managesCodings = first(names, values, "content-encoding") == null && compressible(names, values)
				&& CachedResponse.mayHaveBody(status);
		if (managesCodings) {
			vary.remove("accept-encoding");
		}
		return new Decision(null, new CachedResponse.Metadata(List.copyOf(vary), managesCodings,
				first(names, values, "etag"), HttpDates.parse(first(names, values, "last-modified")), now,
				Math.max(age, apparentAge), Math.max(0, fresh), swr, sie, cc.isPublic(),
				tags(all(names, values, this.config.tagHeader()))));
	}

	private static long window(long directiveSeconds, long configured) {
		return (directiveSeconds >= 0) ? directiveSeconds * 1000 : configured;
	}

	private boolean compressible(String[] names, String[] values) {
		String type = first(names, values, "content-type");
		if (type == null) {
			return false;
		}
		String lower = type.toLowerCase(Locale.ROOT);
		for (String prefix : this.config.compressibleTypes()) {
			if (lower.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	/** @return the names, lower case and sorted, or {@code null} for {@code Vary: *} */
	static List<String> varyNames(List<String> values) {
		TreeSet<String> names = new TreeSet<>();
		for (String value : values) {
			for (String name : value.split(",")) {
				String trimmed = PageKeys.lower(name);
				if (trimmed.equals("*")) {
					return null;
				}
				if (!trimmed.isEmpty()) {
					names.add(trimmed);
				}
			}
		}
		return new ArrayList<>(names);
	}

	private static List<String> tags(List<String> values) {
		List<String> tags = new ArrayList<>();
		for (String value : values) {
			for (String tag : value.split("[,\\s]+")) {
				if (!tag.isEmpty() && !tags.contains(tag)) {
					tags.add(tag);
				}
			}
		}
		return List.copyOf(tags);
	}

	private static long parseSeconds(String value) {
		if (value == null) {
			return 0;
		}
		return CacheControl.deltaSeconds(value.trim());
	}

	static String first(String[] names, String[] values, String name) {
		for (int i = 0; i < names.length; i++) {
			if (names[i].equalsIgnoreCase(name)) {
				return values[i];
			}
		}
		return null;
	}

	static List<String> all(String[] names, String[] values, String name) {
		List<String> all = null;
		for (int i = 0; i < names.length; i++) {
			if (names[i].equalsIgnoreCase(name)) {
				if (all == null) {
					all = new ArrayList<>(2);
				}
				all.add(values[i]);
			}
		}
		return (all != null) ? all : List.of();
	}

}
