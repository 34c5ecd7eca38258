package io.khamsin.sample;

/**
 * Request heads written by hand for {@link io.khamsin.container.test.RawHttpConnection}.
 */
final class Requests {

	private Requests() {
	}

	static String get(String target) {
		return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
	}

	static String head(String target) {
		return "HEAD " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
	}

}
