package io.khamsin.container.compression;

import java.util.EnumSet;
import java.util.List;

import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeTypeUtils;

/**
 * The immutable configuration of response compression. The first four options are Spring Boot's
 * {@code server.compression.*} with Boot's defaults; the others are the engine's own.
 *
 * @param enabled whether responses are compressed at all
 * @param mimeTypes the media types of the responses that are compressed, matched as Spring's
 * {@code MimeType.isCompatibleWith} does ({@code text/*}, {@code application/*+json} and parameters ignored, as in
 * Boot's Reactor Netty customizer); an empty list compresses every type, even a response with no
 * {@code Content-Type}
 * @param minResponseSize the smallest body, in bytes, that is compressed when its length is known; a body of
 * unknown length (a stream with no {@code Content-Length}) is compressed whatever its size; {@code 0} compresses
 * every body
 * @param excludedUserAgents the {@code User-Agent} values that never get a compressed response: a value equal to the
 * whole header ignoring case (as Reactor Netty compares), or a regular expression that matches the whole header (as
 * Tomcat does)
 * @param codings the codings offered, in the server's order of preference where the client's q-values tie
 * @param gzipLevel the deflate level of gzip, 1 (fastest) to 9 (smallest)
 * @param brotliQuality the quality of br, 0 (fastest) to 11 (smallest)
 * @param zstdLevel the level of zstd, 1 (fastest) to 22 (smallest)
 * @param offloadThreshold the size, in bytes, from which a single-buffer body is compressed off the event loop
 */
public record CompressionConfig(boolean enabled, List<String> mimeTypes, long minResponseSize,
		List<String> excludedUserAgents, List<ContentCoding> codings, int gzipLevel, int brotliQuality, int zstdLevel,
		int offloadThreshold) {

	/** Default media types: Boot's {@code server.compression.mime-types}. */
	public static final List<String> DEFAULT_MIME_TYPES = List.of("text/html", "text/xml", "text/plain", "text/css",
			"text/javascript", "application/javascript", "application/json", "application/xml");

	/** Default smallest compressed body: Boot's {@code server.compression.min-response-size}, 2 KB. */
	public static final long DEFAULT_MIN_RESPONSE_SIZE = 2048;

	/** Default codings, most preferred first. */
	public static final List<ContentCoding> DEFAULT_CODINGS = List.of(ContentCoding.ZSTD, ContentCoding.BR,
			ContentCoding.GZIP);

	/** Default gzip level: zlib's own default. */
	public static final int DEFAULT_GZIP_LEVEL = 6;

	/** Default br quality: Netty's default, far faster than brotli's own 11 and smaller than gzip at 6. */
	public static final int DEFAULT_BROTLI_QUALITY = 4;

	/** Default zstd level: zstd's own default. */
	public static final int DEFAULT_ZSTD_LEVEL = 3;

	/**
	 * Default offload threshold, 64 KiB: below it every coding takes a millisecond or less on the loop. 128 KiB of
	 * JSON took (median) 2.8 ms with gzip at 6, 1.8 ms with br at 4 and 0.41 ms with zstd at 3, and 8 KiB 0.12, 0.13
	 * and 0.04 ms (ContentEncoderBenchmark in benchmark/, sample mode, on the shared 2-core machine).
	 */
	public static final int DEFAULT_OFFLOAD_THRESHOLD = 64 * 1024;

	public CompressionConfig {
		mimeTypes = List.copyOf(mimeTypes);
		excludedUserAgents = List.copyOf(excludedUserAgents);
		codings = List.copyOf(codings);
		for (String mimeType : mimeTypes) {
			try {
				MimeTypeUtils.parseMimeType(mimeType);
			}
			catch (InvalidMimeTypeException ex) {
				throw new IllegalArgumentException("mimeTypes: '" + mimeType + "' is not a media type: "
						+ ex.getMessage(), ex);
			}
		}
		if (minResponseSize < 0) {
			throw new IllegalArgumentException("minResponseSize must not be negative, was " + minResponseSize);
		}
		if (codings.isEmpty() || codings.contains(ContentCoding.IDENTITY)
				|| EnumSet.copyOf(codings).size() != codings.size()) {
			throw new IllegalArgumentException("codings must name each of zstd, br, gzip at most once and at least "
					+ "one of them, was " + codings);
		}
		check("gzipLevel", gzipLevel, 1, 9);
		check("brotliQuality", brotliQuality, 0, 11);
		check("zstdLevel", zstdLevel, 1, 22);
		if (offloadThreshold < 1) {
			throw new IllegalArgumentException("offloadThreshold must be positive, was " + offloadThreshold);
		}
	}

	private static void check(String name, int value, int min, int max) {
		if (value < min || value > max) {
			throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ", was " + value);
		}
	}

	/**
	 * Compression switched off, as by default.
	 * @return the configuration
	 */
	public static CompressionConfig disabled() {
		return of(false, DEFAULT_MIME_TYPES, DEFAULT_MIN_RESPONSE_SIZE, List.of());
	}

	/**
	 * Compression with Boot's options and the engine's defaults for the rest.
	 * @param enabled whether responses are compressed
	 * @param mimeTypes the media types compressed
	 * @param minResponseSize the smallest body compressed
	 * @param excludedUserAgents the user agents that get no compressed response
	 * @return the configuration
	 */
	public static CompressionConfig of(boolean enabled, List<String> mimeTypes, long minResponseSize,
			List<String> excludedUserAgents) {
		return new CompressionConfig(enabled, mimeTypes, minResponseSize, excludedUserAgents, DEFAULT_CODINGS,
				DEFAULT_GZIP_LEVEL, DEFAULT_BROTLI_QUALITY, DEFAULT_ZSTD_LEVEL, DEFAULT_OFFLOAD_THRESHOLD);
	}

	/**
	 * This configuration offering other codings.
	 * @param codings the codings, most preferred first
	 * @return the configuration
	 */
	public CompressionConfig withCodings(ContentCoding... codings) {
		return new CompressionConfig(this.enabled, this.mimeTypes, this.minResponseSize, this.excludedUserAgents,
				List.of(codings), this.gzipLevel, this.brotliQuality, this.zstdLevel, this.offloadThreshold);
	}

	/**
	 * This configuration with other compression levels.
	 * @param gzipLevel the gzip level
	 * @param brotliQuality the br quality
	 * @param zstdLevel the zstd level
	 * @return the configuration
	 */
	public CompressionConfig withLevels(int gzipLevel, int brotliQuality, int zstdLevel) {
		return new CompressionConfig(this.enabled, this.mimeTypes, this.minResponseSize, this.excludedUserAgents,
				this.codings, gzipLevel, brotliQuality, zstdLevel, this.offloadThreshold);
	}

	/**
	 * This configuration with another offload threshold.
	 * @param offloadThreshold the size from which a single buffer is compressed off the event loop
	 * @return the configuration
	 */
	public CompressionConfig withOffloadThreshold(int offloadThreshold) {
		return new CompressionConfig(this.enabled, this.mimeTypes, this.minResponseSize, this.excludedUserAgents,
				this.codings, this.gzipLevel, this.brotliQuality, this.zstdLevel, offloadThreshold);
	}

}
