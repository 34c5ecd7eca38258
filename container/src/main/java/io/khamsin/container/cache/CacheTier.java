package io.khamsin.container.cache;

/**
 * The tier that answered, as tagged in the figures ({@code tier}): a miss is counted on the last tier asked.
 */
public enum CacheTier {

	/** This instance's memory. */
	LOCAL("local"),

	/** The fleet's shared store. */
	SHARED("shared");

	private final String tag;

	CacheTier(String tag) {
		this.tag = tag;
	}

	/** @return the tag value */
	public String tag() {
		return this.tag;
	}

}
