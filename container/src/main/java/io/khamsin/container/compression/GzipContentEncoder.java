package io.khamsin.container.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * gzip (RFC 1952) with the JDK's raw {@code Deflater}, reading and writing Netty's buffers in place through their
 * NIO views. A flush is a zlib sync flush: an empty stored block ends the output at a byte boundary, so the client
 * inflates everything so far.
 */
final class GzipContentEncoder extends AbstractContentEncoder {

	/** Magic, deflate, no flags, no modification time, no extra flags, unknown operating system. */
	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff };

	private static final byte[] NO_INPUT = new byte[0];

	private static final int MIN_WINDOW = 64;

	private final Deflater deflater;

	private final CRC32 crc = new CRC32();

	private boolean headerWritten;

	GzipContentEncoder(ByteBufAllocator allocator, int level) {
		super(ContentCoding.GZIP, allocator);
		this.deflater = new Deflater(level, true);
	}

	@Override
	void compress(ByteBuf input, ByteBuf out) {
		writeHeader(out);
		if (input.nioBufferCount() == 1) {
			compress(input.nioBuffer(), out);
		}
		else {
			for (ByteBuffer part : input.nioBuffers()) {
				compress(part, out);
			}
		}
		input.skipBytes(input.readableBytes());
		// The input buffer is released after this call: the Deflater must not keep it.
		this.deflater.setInput(NO_INPUT);
	}

	private void compress(ByteBuffer part, ByteBuf out) {
		this.crc.update(part.duplicate());
		this.deflater.setInput(part);
		while (!this.deflater.needsInput()) {
			ByteBuffer window = writable(out, MIN_WINDOW);
			this.deflater.deflate(window, Deflater.NO_FLUSH);
			written(out, window);
		}
	}

	@Override
	void emitFlush(ByteBuf out) {
		writeHeader(out);
		ByteBuffer window;
		do {
			window = writable(out, MIN_WINDOW);
			this.deflater.deflate(window, Deflater.SYNC_FLUSH);
			written(out, window);
		}
		while (!window.hasRemaining());
	}

	@Override
	void emitEnd(ByteBuf out) {
		writeHeader(out);
		this.deflater.finish();
		while (!this.deflater.finished()) {
			ByteBuffer window = writable(out, MIN_WINDOW);
			this.deflater.deflate(window, Deflater.NO_FLUSH);
			written(out, window);
		}
		out.writeIntLE((int) this.crc.getValue());
		out.writeIntLE((int) this.deflater.getBytesRead());
	}

	private void writeHeader(ByteBuf out) {
		if (!this.headerWritten) {
			this.headerWritten = true;
			out.writeBytes(HEADER);
		}
	}

	@Override
	void free() {
		this.deflater.end();
	}

}
