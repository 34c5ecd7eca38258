package io.khamsin.container.compression;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The user agents that never get a compressed response ({@code server.compression.excluded-user-agents}). Boot's
 * containers read the option differently: Reactor Netty excludes a {@code User-Agent} equal to an entry ignoring
 * case, Tomcat one that an entry, as a regular expression, matches whole. Both are honoured, so a configuration
 * written for either keeps its meaning here.
 */
final class ExcludedUserAgents {

	private final List<String> values;

	private final List<Pattern> patterns;

	ExcludedUserAgents(List<String> values) {
		this.values = List.copyOf(values);
		this.patterns = values.stream().map(ExcludedUserAgents::patternOrNull).filter((p) -> p != null).toList();
	}

	private static Pattern patternOrNull(String value) {
		try {
			return Pattern.compile(value);
		}
		catch (PatternSyntaxException ex) {
			return null;
		}
	}

	boolean isEmpty() {
		return this.values.isEmpty();
	}

	boolean excludes(List<String> userAgents) {
		for (String userAgent : userAgents) {
			for (String value : this.values) {
				if (value.equalsIgnoreCase(userAgent)) {
					return true;
				}
			}
			for (Pattern pattern : this.patterns) {
				if (pattern.matcher(userAgent).matches()) {
					return true;
				}
			}
		}
		return false;
	}

}
