package io.khamsin.container.compression;

import java.io.IOException;
import java.nio.ByteBuffer;

import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.EncoderException;

/**
 * br (RFC 7932) through brotli4j's streaming JNI encoder. Input is copied into the encoder's own native input
 * buffer, and its output copied out into Netty buffers, the two copies its API asks for. One stream for the whole
 * body, flushed only where the response flushes: Netty's {@code BrotliEncoder} flushes the stream on every write,
 * which costs ratio on a body written in many parts.
 */
final class BrotliContentEncoder extends AbstractContentEncoder {

	private static final int INPUT_BUFFER_SIZE = 16 * 1024;

	/**
	 * A 512 KiB window, nginx's default for br. Brotli from quality 4 holds input until it has a metablock of twice
	 * the window unless flushed: with brotli's own 22 bits (Netty's default) a streamed body showed no output for
	 * its first 8 MiB, with 19 bits one every 1 MiB. Responses below 512 KiB compress the same either way.
	 */
	private static final int WINDOW_BITS = 19;

	private final EncoderJNI.Wrapper encoder;

	BrotliContentEncoder(ByteBufAllocator allocator, int quality) {
		super(ContentCoding.BR, allocator);
		if (!ContentCoding.BR.isAvailable()) {
			throw new IllegalStateException("br is not available: brotli4j's native library did not load");
		}
		try {
			this.encoder = new EncoderJNI.Wrapper(INPUT_BUFFER_SIZE, quality, WINDOW_BITS, Encoder.Mode.GENERIC);
		}
		catch (IOException ex) {
			throw new EncoderException("br encoder could not be created: " + ex.getMessage(), ex);
		}
	}

	@Override
	void compress(ByteBuf input, ByteBuf out) {
		while (input.isReadable()) {
			ByteBuffer buffer = this.encoder.getInputBuffer();
			buffer.clear();
			int length = Math.min(input.readableBytes(), buffer.capacity());
			buffer.limit(length);
			input.readBytes(buffer);
			push(EncoderJNI.Operation.PROCESS, length, out);
		}
	}

	@Override
	void emitFlush(ByteBuf out) {
		push(EncoderJNI.Operation.FLUSH, 0, out);
	}

	@Override
	void emitEnd(ByteBuf out) {
		push(EncoderJNI.Operation.FINISH, 0, out);
		if (!this.encoder.isFinished()) {
			throw new EncoderException("br encoder did not finish its stream");
		}
	}

	private void push(EncoderJNI.Operation operation, int length, ByteBuf out) {
		this.encoder.push(operation, length);
		while (true) {
			if (!this.encoder.isSuccess()) {
				throw new EncoderException("br encoding failed");
			}
			if (this.encoder.hasMoreOutput()) {
				out.writeBytes(this.encoder.pull());
			}
			else if (this.encoder.hasRemainingInput()) {
				this.encoder.push(operation, 0);
			}
			else {
				return;
			}
		}
	}

	@Override
	void free() {
		this.encoder.destroy();
	}

}
