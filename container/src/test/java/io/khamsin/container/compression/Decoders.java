package io.khamsin.container.compression;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdInputStream;

/**
 * Decoders that owe nothing to the encoders under test: the JDK's gzip, brotli4j's and zstd-jni's decoders, whole
 * (streams) and incremental (fed the bytes of each flush, returning what decodes so far).
 */
final class Decoders {

	static {
		Brotli4jLoader.ensureAvailability();
	}

	private Decoders() {
	}

	static byte[] decodeWhole(ContentCoding coding, byte[] coded) {
		try (InputStream in = switch (coding) {
			case GZIP -> new GZIPInputStream(new ByteArrayInputStream(coded));
			case BR -> new BrotliInputStream(new ByteArrayInputStream(coded));
			case ZSTD -> new ZstdInputStream(new ByteArrayInputStream(coded));
			case IDENTITY -> new ByteArrayInputStream(coded);
		}) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static Incremental incremental(ContentCoding coding) {
		return switch (coding) {
			case GZIP -> new IncrementalGzip();
			case BR -> new IncrementalBrotli();
			case ZSTD -> new IncrementalZstd();
			case IDENTITY -> throw new IllegalArgumentException("identity needs no decoder");
		};
	}

	/** Fed coded bytes as they arrive, answers the identity bytes they complete. */
	interface Incremental extends AutoCloseable {

		byte[] feed(byte[] coded);

		@Override
		void close();

	}

	private static final class IncrementalGzip implements Incremental {

		private final Inflater inflater = new Inflater(true);

		private final ByteArrayOutputStream header = new ByteArrayOutputStream();

		@Override
		public byte[] feed(byte[] coded) {
			int offset = 0;
			if (this.header.size() < 10) {
				offset = Math.min(10 - this.header.size(), coded.length);
				this.header.write(coded, 0, offset);
				byte[] head = this.header.toByteArray();
				if (head.length >= 2 && (head[0] != 0x1f || head[1] != (byte) 0x8b)) {
					throw new IllegalStateException("not gzip");
				}
			}
			if (this.inflater.finished()) {
				return new byte[0];
			}
			this.inflater.setInput(coded, offset, coded.length - offset);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			byte[] chunk = new byte[8192];
			try {
				while (!this.inflater.finished()) {
					int n = this.inflater.inflate(chunk);
					if (n == 0 && (this.inflater.needsInput() || this.inflater.needsDictionary())) {
						break;
					}
					out.write(chunk, 0, n);
				}
			}
			catch (DataFormatException ex) {
				throw new IllegalStateException(ex);
			}
			return out.toByteArray();
		}

		@Override
		public void close() {
			this.inflater.end();
		}

	}

	private static final class IncrementalBrotli implements Incremental {

		private final DecoderJNI.Wrapper decoder;

		IncrementalBrotli() {
			try {
				this.decoder = new DecoderJNI.Wrapper(4096);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public byte[] feed(byte[] coded) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			int offset = 0;
			do {
				ByteBuffer input = this.decoder.getInputBuffer();
				input.clear();
				int n = Math.min(input.capacity(), coded.length - offset);
				input.put(coded, offset, n);
				offset += n;
				this.decoder.push(n);
				drain(out);
			}
			while (offset < coded.length);
			return out.toByteArray();
		}

		private void drain(ByteArrayOutputStream out) {
			while (true) {
				switch (this.decoder.getStatus()) {
					case OK -> this.decoder.push(0);
					case NEEDS_MORE_OUTPUT -> write(out, this.decoder.pull());
					case NEEDS_MORE_INPUT, DONE -> {
						if (!this.decoder.hasOutput()) {
							return;
						}
						write(out, this.decoder.pull());
					}
					default -> throw new IllegalStateException("corrupt br stream");
				}
			}
		}

		private static void write(ByteArrayOutputStream out, ByteBuffer buffer) {
			byte[] bytes = new byte[buffer.remaining()];
			buffer.get(bytes);
			out.writeBytes(bytes);
		}

		@Override
		public void close() {
			this.decoder.destroy();
		}

	}

	private static final class IncrementalZstd implements Incremental {

		private final ZstdDecompressCtx context = new ZstdDecompressCtx();

		@Override
		public byte[] feed(byte[] coded) {
			ByteBuffer source = ByteBuffer.allocateDirect(Math.max(1, coded.length));
			source.put(coded).flip();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ByteBuffer target = ByteBuffer.allocateDirect(64 * 1024);
			while (true) {
				target.clear();
				this.context.decompressDirectByteBufferStream(target, source);
				target.flip();
				byte[] bytes = new byte[target.remaining()];
				target.get(bytes);
				out.writeBytes(bytes);
				if (!source.hasRemaining() && bytes.length < target.capacity()) {
					return out.toByteArray();
				}
			}
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

}
