package io.khamsin.container.compression;

import io.netty.buffer.ByteBuf;

/**
 * A streaming encoder of one response body: identity bytes in, coded bytes out. Each call returns what the coding
 * has produced so far (possibly an empty buffer, never {@code null}), which the caller owns and writes or releases.
 * A {@link #flush()} makes everything given so far decodable by the client, for a streamed response whose parts
 * must arrive as they are written (server-sent events); {@link #finish()} ends the body.
 * <p>
 * The encoder holds native state (zlib, brotli or zstd contexts): it must be finished or {@link #close() closed}
 * on every path, including an error or a cancelled response. Once closed, every call fails, and a buffer given to
 * it is still released. Not thread-safe: one thread at a time, as the event loop of the response uses it.
 */
public interface ContentEncoder extends AutoCloseable {

	/**
	 * The coding this encoder writes.
	 * @return the coding
	 */
	ContentCoding coding();

	/**
	 * Encode part of the body. The encoder takes the buffer and releases it, whatever happens.
	 * @param input identity bytes
	 * @return coded bytes produced so far; often empty, the coding keeps input until it has enough
	 * @throws IllegalStateException if the encoder is closed
	 * @throws io.netty.handler.codec.EncoderException if the coding fails (the encoder is then closed)
	 */
	ByteBuf encode(ByteBuf input);

	/**
	 * Emit everything given so far, so that the client can decode it before the body ends.
	 * @return coded bytes
	 * @throws IllegalStateException if the encoder is closed
	 */
	ByteBuf flush();

	/**
	 * End the body: the remaining coded bytes and the coding's trailer. The encoder is closed afterwards.
	 * @return the last coded bytes
	 * @throws IllegalStateException if the encoder is closed
	 */
	ByteBuf finish();

	/**
	 * Free the encoder's native state without ending the body: the response was cancelled or failed. Does nothing
	 * when already closed or finished.
	 */
	@Override
	void close();

	/**
	 * Encode a whole body in one go, as {@link #encode} then {@link #finish} would, in one buffer. The encoder is
	 * closed afterwards.
	 * @param body the identity body, released by the encoder
	 * @return the coded body
	 * @throws IllegalStateException if the encoder is closed
	 */
	ByteBuf encodeWhole(ByteBuf body);

}
