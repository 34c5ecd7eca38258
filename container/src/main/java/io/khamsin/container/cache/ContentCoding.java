package io.khamsin.container.cache;

/**
 * The content codings an entry may hold a variant in (RFC 9110, section 8.4.1).
 */
public enum ContentCoding {

	/** The body as the application rendered it. */
	IDENTITY("identity"),

	/** gzip (RFC 1952). */
	GZIP("gzip"),

	/** Brotli (RFC 7932). */
	BR("br"),

	/** Zstandard (RFC 8878). */
	ZSTD("zstd");

	private final String token;

	ContentCoding(String token) {
		this.token = token;
	}

	/** @return the token in {@code Accept-Encoding} and {@code Content-Encoding} */
	public String token() {
		return this.token;
	}

}
