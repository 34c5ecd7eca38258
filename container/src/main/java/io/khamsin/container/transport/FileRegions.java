package io.khamsin.container.transport;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

import io.netty.channel.Channel;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The file region each transport sends best. On epoll and NIO that is Netty's {@link DefaultFileRegion}, which
 * leaves by {@code sendfile}. On io_uring Netty splices a {@code DefaultFileRegion} through a pipe, and a splice into
 * a socket whose send buffer is full is handed to one of io_uring's kernel workers, which blocks until the client
 * reads: a client that reads slowly holds a kernel thread, and the region's two pipe descriptors, for as long as its
 * response lasts (200 slow readers of a 1 MiB file gave the server 219 threads, against 17 on epoll). Any other
 * {@link FileRegion} io_uring reads into a buffer and sends asynchronously, waiting for the socket's readiness as a
 * read does, so a slow reader holds nothing but its connection: that is the region returned on io_uring.
 */
public final class FileRegions {

	/** How much of a file one read takes: Netty's io_uring reads a generic region in chunks of this size. */
	private static final int CHUNK = 64 * 1024;

	private static final FastThreadLocal<ByteBuffer> chunks = new FastThreadLocal<>() {

		@Override
		protected ByteBuffer initialValue() {
			return ByteBuffer.allocateDirect(CHUNK);
		}

	};

	private FileRegions() {
	}

	/**
	 * The region by which {@code channel}'s transport should send part of a file.
	 * @param channel the connection
	 * @param file the file, opened when the region is first sent (a file unlinked after that is still sent whole)
	 * @param position where the part starts
	 * @param count how many bytes it has
	 * @return the region, to write to the channel
	 */
	public static FileRegion of(Channel channel, File file, long position, long count) {
		if (readsIntoBuffers(channel)) {
			return new ReadFileRegion(file, position, count);
		}
		return new DefaultFileRegion(file, position, count);
	}

	/**
	 * Whether {@code channel}'s transport sends a file region by reading the file into buffers (io_uring), rather
	 * than by the kernel copying it to the socket ({@code sendfile} on epoll and NIO).
	 * @param channel the connection
	 * @return whether its file regions pass through the JVM
	 */
	public static boolean readsIntoBuffers(Channel channel) {
		return channel instanceof IoUringSocketChannel;
	}

	/**
	 * A part of a file that the transport reads into its own buffer, {@value #CHUNK} bytes at a time. Its reads go
	 * through one direct buffer per thread, so a chunk is read by one {@code pread} and copied once into the
	 * transport's buffer.
	 */
	static final class ReadFileRegion extends AbstractReferenceCounted implements FileRegion {

		private final File file;

		private final long position;

		private final long count;

		private long transferred;

		private FileChannel channel;

		ReadFileRegion(File file, long position, long count) {
			this.file = file;
			this.position = position;
			this.count = count;
		}

		@Override
		public long position() {
			return this.position;
		}

		@Override
		@Deprecated
		public long transfered() {
			return this.transferred;
		}

		@Override
		public long transferred() {
			return this.transferred;
		}

		@Override
		public long count() {
			return this.count;
		}

		@Override
		public long transferTo(WritableByteChannel target, long position) throws IOException {
			long left = this.count - position;
			if (left < 0 || position < 0) {
				throw new IllegalArgumentException(
						"position out of range: " + position + " (expected: 0 - " + (this.count - 1) + ')');
			}
			if (left == 0) {
				return 0;
			}
			if (refCnt() == 0) {
				throw new IOException("the file region of " + this.file + " was released before it was sent");
			}
			if (this.channel == null) {
				this.channel = new RandomAccessFile(this.file, "r").getChannel();
			}
			ByteBuffer chunk = chunks.get();
			chunk.clear().limit((int) Math.min(left, CHUNK));
			int read = this.channel.read(chunk, this.position + position);
			if (read < 0) {
				throw new EOFException("the file " + this.file + " ended at " + (this.position + position)
						+ ", short of the region sent from it (to " + (this.position + this.count) + ")");
			}
			chunk.flip();
			int written = target.write(chunk);
			this.transferred += written;
			return written;
		}

		@Override
		public ReadFileRegion retain() {
			super.retain();
			return this;
		}

		@Override
		public ReadFileRegion retain(int increment) {
			super.retain(increment);
			return this;
		}

		@Override
		public ReadFileRegion touch() {
			return this;
		}

		@Override
		public ReadFileRegion touch(Object hint) {
			return this;
		}

		@Override
		protected void deallocate() {
			FileChannel channel = this.channel;
			this.channel = null;
			if (channel != null) {
				try {
					channel.close();
				}
				catch (IOException ex) {
					// Closing a file opened for reading: nothing was left to lose.
				}
			}
		}

	}

}
