package io.khamsin.container.cache;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import io.khamsin.container.compression.ContentCoding;

/**
 * gzip variants (RFC 1952) with the JDK's {@link Deflater}, reading the body from direct memory and writing the
 * result into direct memory, with no heap copy of either.
 */
public final class GzipVariantEncoder implements VariantEncoder {

	/** Default level: zlib's own default, the usual balance of ratio and speed for text. */
	public static final int DEFAULT_LEVEL = 6;

	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff };

	private final int level;

	/** A gzip encoder at {@link #DEFAULT_LEVEL}. */
	public GzipVariantEncoder() {
		this(DEFAULT_LEVEL);
	}

	/**
	 * A gzip encoder.
	 * @param level the deflate level, 1 (fastest) to 9 (smallest)
	 */
	public GzipVariantEncoder(int level) {
		if (level < 1 || level > 9) {
			throw new IllegalArgumentException("level must be between 1 and 9, was " + level);
		}
		this.level = level;
	}

	@Override
	public ContentCoding coding() {
		return ContentCoding.GZIP;
	}

	@Override
	public ByteBuf encode(ByteBuf body, ByteBufAllocator alloc) {
		int length = body.readableBytes();
		// deflate's worst case is about 0.03% over the input, plus header and trailer.
		ByteBuf out = alloc.directBuffer(length + (length >> 10) + 64);
		Deflater deflater = new Deflater(this.level, true);
		try {
			out.writeBytes(HEADER);
			CRC32 crc = new CRC32();
			ByteBuffer input = body.nioBuffer(body.readerIndex(), length);
			crc.update(input.duplicate());
			deflater.setInput(input);
			deflater.finish();
			while (!deflater.finished()) {
				out.ensureWritable(Math.max(1024, length >> 3));
				ByteBuffer target = out.internalNioBuffer(out.writerIndex(), out.writableBytes());
				int written = deflater.deflate(target);
				out.writerIndex(out.writerIndex() + written);
			}
			out.writeIntLE((int) crc.getValue());
			out.writeIntLE(length);
			return out;
		}
		catch (RuntimeException ex) {
			out.release();
			throw ex;
		}
		finally {
			deflater.end();
		}
	}

}
