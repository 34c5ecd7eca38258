package io.khamsin.container.cache;

import java.io.IOException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import io.khamsin.container.compression.ContentCoding;

/**
 * Makes a compressed variant of an entry's body, once, for every later client that accepts its coding. The page
 * cache calls it on the event loop for small bodies and on its variant executor for large ones, one call per entry
 * and coding; an implementation must be thread-safe and must not block on anything but the CPU.
 * <p>
 * {@link GzipVariantEncoder} is the JDK's gzip; {@link CompressedVariantEncoder} makes Brotli and Zstandard with
 * the encoders of the {@code compression} package.
 */
public interface VariantEncoder {

	/** @return the coding it produces, never {@link ContentCoding#IDENTITY} */
	ContentCoding coding();

	/**
	 * Compress a whole body.
	 * @param body the identity body; read it without changing its indices, do not release it
	 * @param alloc where the result is allocated (direct, pooled)
	 * @return the compressed body, owned by the caller
	 * @throws IOException if the body cannot be compressed
	 */
	ByteBuf encode(ByteBuf body, ByteBufAllocator alloc) throws IOException;

}
