package io.khamsin.container.cache;

import java.time.Duration;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * How the responses of the paths that match a pattern are cached: for a fixed time whatever their
 * {@code Cache-Control} says ({@link #ttl(String, Duration)}), or as their {@code Cache-Control} says
 * ({@link #respectCacheControl(String)}). A rule never stores what must not be shared: {@code private},
 * {@code no-store}, {@code Set-Cookie}, {@code Vary: *}, and responses to requests with {@code Authorization} that
 * do not say {@code public}. The first rule that matches a path applies; a path that no rule matches is cached as
 * its {@code Cache-Control} says.
 *
 * @param pattern a Spring path pattern, such as {@code /page/**} or {@code /static/{file}.css}
 * @param ttl how long its responses stay fresh, or {@code null} to respect their {@code Cache-Control}
 */
public record PageCacheRule(String pattern, Duration ttl) {

	public PageCacheRule {
		if (pattern == null || pattern.isBlank()) {
			throw new IllegalArgumentException("pattern must not be blank");
		}
		if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
			throw new IllegalArgumentException("ttl of rule " + pattern + " must be positive, was " + ttl);
		}
		parse(pattern);
	}

	/**
	 * Cache the responses of a pattern's paths for a fixed time.
	 * @param pattern the path pattern
	 * @param ttl how long they stay fresh
	 * @return the rule
	 */
	public static PageCacheRule ttl(String pattern, Duration ttl) {
		if (ttl == null) {
			throw new IllegalArgumentException("ttl of rule " + pattern + " must not be null");
		}
		return new PageCacheRule(pattern, ttl);
	}

	/**
	 * Cache the responses of a pattern's paths as their {@code Cache-Control} says.
	 * @param pattern the path pattern
	 * @return the rule
	 */
	public static PageCacheRule respectCacheControl(String pattern) {
		return new PageCacheRule(pattern, null);
	}

	/** @return whether the rule respects the response's {@code Cache-Control} */
	public boolean respectsCacheControl() {
		return this.ttl == null;
	}

	PathPattern compile() {
		return parse(this.pattern);
	}

	private static PathPattern parse(String pattern) {
		try {
			return PathPatternParser.defaultInstance.parse(pattern);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("pattern '" + pattern + "' is not a path pattern: " + ex.getMessage(), ex);
		}
	}

	static boolean matches(PathPattern pattern, String path) {
		return pattern.matches(PathContainer.parsePath(path));
	}

}
