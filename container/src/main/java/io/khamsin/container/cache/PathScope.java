package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The paths the page cache looks up ({@link PageCacheConfig#paths()}): every path when none are named, else those
 * that match one of the patterns. A pattern of the common form {@code /prefix/**} is matched as a prefix, with no
 * allocation, so that a request outside the cache's paths costs a string comparison; any other pattern is Spring's
 * {@link PathPattern}.
 */
public final class PathScope {

	private static final PathScope EVERY_PATH = new PathScope(new String[0], List.of(), true);

	private final String[] prefixes;

	private final List<PathPattern> patterns;

	private final boolean everyPath;

	private PathScope(String[] prefixes, List<PathPattern> patterns, boolean everyPath) {
		this.prefixes = prefixes;
		this.patterns = patterns;
		this.everyPath = everyPath;
	}

	/**
	 * @param patterns Spring path patterns; none means every path
	 * @return the scope
	 * @throws IllegalArgumentException naming a pattern that is not one
	 */
	public static PathScope of(List<String> patterns) {
		if (patterns.isEmpty()) {
			return EVERY_PATH;
		}
		List<String> prefixes = new ArrayList<>();
		List<PathPattern> compiled = new ArrayList<>();
		for (String pattern : patterns) {
			PathPattern parsed = parse(pattern);
			String prefix = pattern.endsWith("/**") ? pattern.substring(0, pattern.length() - 3) : null;
			if (prefix != null && prefix.indexOf('*') < 0 && prefix.indexOf('{') < 0 && prefix.indexOf('?') < 0) {
				prefixes.add(prefix);
			}
			else {
				compiled.add(parsed);
			}
		}
		return new PathScope(prefixes.toArray(new String[0]), List.copyOf(compiled), false);
	}

	/**
	 * Whether a request target is in the scope.
	 * @param target the request target as sent: origin form ({@code /page/1?x}) or absolute form
	 * @return {@code true} if its path matches
	 */
	public boolean includes(String target) {
		if (this.everyPath) {
			return true;
		}
		int start = 0;
		if (!target.startsWith("/")) {
			int scheme = target.indexOf("://");
			start = (scheme < 0) ? -1 : target.indexOf('/', scheme + 3);
			if (start < 0) {
				return false;
			}
		}
		int end = target.length();
		for (int i = start; i < end; i++) {
			char c = target.charAt(i);
			if (c == '?' || c == '#') {
				end = i;
				break;
			}
		}
		for (String prefix : this.prefixes) {
			int length = prefix.length();
			if (end - start >= length && target.startsWith(prefix, start)
					&& (end - start == length || target.charAt(start + length) == '/' || prefix.isEmpty())) {
				return true;
			}
		}
		if (!this.patterns.isEmpty()) {
			PathContainer path = PathContainer.parsePath(target.substring(start, end));
			for (PathPattern pattern : this.patterns) {
				if (pattern.matches(path)) {
					return true;
				}
			}
		}
		return false;
	}

	private static PathPattern parse(String pattern) {
		try {
			return PathPatternParser.defaultInstance.parse(pattern);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("path '" + pattern + "' is not a path pattern: " + ex.getMessage(), ex);
		}
	}

}
