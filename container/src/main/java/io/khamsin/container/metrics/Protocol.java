package io.khamsin.container.metrics;

/**
 * The protocol a request came on, as tagged in the figures.
 */
public enum Protocol {

	/** HTTP/1.0 and HTTP/1.1. */
	H1("h1"),

	/** HTTP/2. */
	H2("h2"),

	/** HTTP/3. */
	H3("h3");

	private final String tag;

	Protocol(String tag) {
		this.tag = tag;
	}

	/** @return the tag value, e.g. {@code h1} */
	public String tag() {
		return this.tag;
	}

}
