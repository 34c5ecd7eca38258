package io.khamsin.container.compression;

import java.util.Locale;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.github.luben.zstd.util.Native;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The content codings a response body may be in (RFC 9110 section 8.4.1), for the compression of fresh responses and
 * the page cache's variants alike: {@link #IDENTITY}, the body as the application wrote it, and the three khamsin
 * can apply. gzip is the JDK's and always available; br and zstd need the native libraries of brotli4j and
 * zstd-jni, and are offered only where those load.
 */
public enum ContentCoding {

	/** The body as the application wrote it: no coding applied. Never offered as a compression. */
	IDENTITY("identity"),

	/** Zstandard (RFC 8878), through zstd-jni. */
	ZSTD("zstd"),

	/** Brotli (RFC 7932), through brotli4j. */
	BR("br"),

	/** gzip (RFC 1952), through the JDK's {@code Deflater}. */
	GZIP("gzip");

	private static final Logger logger = LoggerFactory.getLogger(ContentCoding.class);

	private final String token;

	private volatile Boolean available;

	ContentCoding(String token) {
		this.token = token;
	}

	/**
	 * The coding's token, as it appears in {@code Accept-Encoding} and {@code Content-Encoding}.
	 * @return the token
	 */
	public String token() {
		return this.token;
	}

	/**
	 * Whether this coding can be used here: its native library loaded. Probed once; a coding that is not
	 * available is logged once and never negotiated.
	 * @return {@code true} if responses can be encoded with it
	 */
	public boolean isAvailable() {
		Boolean available = this.available;
		if (available == null) {
			available = probe();
			this.available = available;
		}
		return available;
	}

	private boolean probe() {
		try {
			switch (this) {
				case ZSTD -> Native.load();
				case BR -> Brotli4jLoader.ensureAvailability();
				case GZIP, IDENTITY -> {
				}
			}
			return true;
		}
		catch (Throwable ex) {
			logger.warn("Content coding '{}' is not available on {} {} ({}): responses are not compressed with it. "
					+ "Add the native library of {} for this platform to offer it", this.token,
					System.getProperty("os.name"), System.getProperty("os.arch"), ex.toString(),
					(this == ZSTD) ? "com.github.luben:zstd-jni" : "com.aayushatharva.brotli4j");
			return false;
		}
	}

	/**
	 * The compression of a token, ignoring case; {@code x-gzip} is gzip (RFC 9110 section 8.4.1.3).
	 * @param token a content coding token
	 * @return the coding
	 * @throws IllegalArgumentException if khamsin has no encoder for the token
	 */
	public static ContentCoding of(String token) {
		String name = token.trim().toLowerCase(Locale.ROOT);
		for (ContentCoding coding : values()) {
			if (coding != IDENTITY && coding.token.equals(name)) {
				return coding;
			}
		}
		if (name.equals("x-gzip")) {
			return GZIP;
		}
		throw new IllegalArgumentException("Unknown content coding '" + token + "': use zstd, br or gzip");
	}

}
