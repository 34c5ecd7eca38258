package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.compression.ContentCoding;
import io.khamsin.container.compression.ContentEncoder;
import io.khamsin.container.compression.ResponseCompression;

/**
 * Brotli and Zstandard variants (RFC 7932, RFC 8878) made with the encoders of the {@code compression} package, at
 * its levels (those of {@code server.compression}'s encoders): one whole-body encode per entry and coding, whose
 * result every later client that accepts the coding is served.
 */
public final class CompressedVariantEncoder implements VariantEncoder {

	private final ResponseCompression compression;

	private final ContentCoding coding;

	private CompressedVariantEncoder(CompressionConfig config, ContentCoding coding) {
		this.compression = new ResponseCompression(config);
		this.coding = coding;
	}

	/** @return a Brotli encoder at the compression package's default quality */
	public static CompressedVariantEncoder brotli() {
		return new CompressedVariantEncoder(CompressionConfig.disabled(), ContentCoding.BR);
	}

	/** @return a Zstandard encoder at the compression package's default level */
	public static CompressedVariantEncoder zstd() {
		return new CompressedVariantEncoder(CompressionConfig.disabled(), ContentCoding.ZSTD);
	}

	/**
	 * The variant encoders of every coding this platform can encode, most preferred first where a client accepts
	 * several alike: zstd and br (when their native libraries load), then gzip.
	 * @return the encoders
	 */
	public static List<VariantEncoder> available() {
		List<VariantEncoder> encoders = new ArrayList<>(3);
		if (ContentCoding.ZSTD.isAvailable()) {
			encoders.add(zstd());
		}
		if (ContentCoding.BR.isAvailable()) {
			encoders.add(brotli());
		}
		encoders.add(new GzipVariantEncoder());
		return List.copyOf(encoders);
	}

	@Override
	public ContentCoding coding() {
		return this.coding;
	}

	@Override
	public ByteBuf encode(ByteBuf body, ByteBufAllocator alloc) {
		ContentEncoder encoder = this.compression.newEncoder(this.coding, alloc);
		// The encoder releases what it is given: it gets its own reference, and the entry keeps its body.
		return encoder.encodeWhole(body.retainedDuplicate());
	}

}
