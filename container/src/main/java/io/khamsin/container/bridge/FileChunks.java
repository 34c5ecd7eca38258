package io.khamsin.container.bridge;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Schedulers;

/**
 * A range of a file as buffers of the connection's allocator, for a body that must pass through the JVM (TLS in user
 * space, HTTP/2 frames, the page cache copying it). The file is opened, read and closed on Reactor's bounded elastic
 * threads, one chunk per demand: a file on a slow disk holds a worker, not a reactor (a cancel between reads
 * closes the file on the cancelling thread, which does not block). Exactly the range is read: the last chunk ends it
 * (no read past it, as a reader of the whole file would do and then be cancelled), and a file that ends before the
 * range does is an {@link EOFException} after the bytes it had, which fails the response however its body is
 * framed (a compressed one announces no length to fall short of).
 */
final class FileChunks {

	private FileChunks() {
	}

	/**
	 * The bytes of {@code file} from {@code position}, {@code count} of them, in chunks.
	 * @param file the file
	 * @param position where the range starts
	 * @param count its length
	 * @param factory the buffers to read into
	 * @param chunkSize the largest chunk
	 * @return the chunks, read as they are asked for
	 */
	static Flux<DataBuffer> read(Path file, long position, long count, DataBufferFactory factory, int chunkSize) {
		return Flux.generate(() -> new Range(FileChannel.open(file, StandardOpenOption.READ), position, count),
				(Range range, SynchronousSink<DataBuffer> sink) -> range.next(sink, factory, chunkSize), Range::close)
			.subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * The bytes of {@code file} from {@code position}, {@code count} of them, in one buffer read now, on the calling
	 * thread: for a body small enough to be read by one read
	 * ({@link io.khamsin.container.egress.FileEgress#readsWhole}).
	 * @param file the file
	 * @param position where the range starts
	 * @param count its length
	 * @param factory the buffers to read into
	 * @return the buffer, holding the whole range
	 * @throws EOFException if the file ends before the range does
	 * @throws IOException if the file can not be opened or read
	 */
	static DataBuffer readWhole(Path file, long position, int count, DataBufferFactory factory) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			DataBuffer buffer = factory.allocateBuffer(count);
			try {
				int read = readInto(channel, position, buffer, count);
				if (read < count) {
					throw new EOFException("The file ended " + (count - read) + " bytes before the range sent from it");
				}
				return buffer;
			}
			catch (IOException | RuntimeException ex) {
				DataBufferUtils.release(buffer);
				throw ex;
			}
		}
	}

	/**
	 * Read up to {@code length} bytes at {@code position} into {@code buffer}, fewer only where the file ends.
	 * @return how many were read, now the buffer's written part
	 */
	private static int readInto(FileChannel channel, long position, DataBuffer buffer, int length) throws IOException {
		int read = 0;
		try (DataBuffer.ByteBufferIterator buffers = buffer.writableByteBuffers()) {
			ByteBuffer target = buffers.next();
			target.limit(target.position() + length);
			while (target.hasRemaining()) {
				int n = channel.read(target, position + read);
				if (n < 0) {
					break;
				}
				read += n;
			}
		}
		buffer.writePosition(buffer.writePosition() + read);
		return read;
	}

	/** What is left of the range, and the open file it is read from. */
	private static final class Range {

		private final FileChannel channel;

		private long position;

		private long remaining;

		Range(FileChannel channel, long position, long remaining) {
			this.channel = channel;
			this.position = position;
			this.remaining = remaining;
		}

		Range next(SynchronousSink<DataBuffer> sink, DataBufferFactory factory, int chunkSize) {
			if (this.remaining <= 0) {
				sink.complete();
				return this;
			}
			int length = (int) Math.min(chunkSize, this.remaining);
			DataBuffer buffer = factory.allocateBuffer(length);
			int read;
			try {
				read = readInto(this.channel, this.position, buffer, length);
			}
			catch (IOException | RuntimeException ex) {
				DataBufferUtils.release(buffer);
				sink.error(ex);
				return this;
			}
			if (read == 0) {
				DataBufferUtils.release(buffer);
				sink.error(shorter());
				return this;
			}
			this.position += read;
			this.remaining -= read;
			sink.next(buffer);
			if (this.remaining == 0) {
				sink.complete();
			}
			else if (read < length) {
				sink.error(shorter());
			}
			return this;
		}

		private EOFException shorter() {
			return new EOFException("The file ended " + this.remaining + " bytes before the range sent from it");
		}

		void close() {
			try {
				this.channel.close();
			}
			catch (IOException ex) {
				// A file opened for reading only: nothing was written that a failed close could lose.
			}
		}

	}

}
