package io.khamsin.sample;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * Counts the bytes of a request body and computes their SHA-256 as the body's buffers arrive, so that a body of
 * any size is checked without holding it.
 */
final class UploadDigest {

	private final MessageDigest sha256;

	private long bytes;

	UploadDigest() {
		try {
			this.sha256 = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every JDK", ex);
		}
	}

	/**
	 * Adds the readable bytes of a buffer without consuming or releasing it.
	 * @param buffer the next part of the body
	 * @return this digest
	 */
	UploadDigest update(DataBuffer buffer) {
		try (DataBuffer.ByteBufferIterator iterator = buffer.readableByteBuffers()) {
			while (iterator.hasNext()) {
				ByteBuffer part = iterator.next();
				this.bytes += part.remaining();
				this.sha256.update(part);
			}
		}
		return this;
	}

	Receipt receipt() {
		return new Receipt(this.bytes, HexFormat.of().formatHex(this.sha256.digest()));
	}

	/**
	 * What {@code POST /upload} answers.
	 *
	 * @param bytes how many bytes the body had
	 * @param sha256 the lower-case hex SHA-256 of the body
	 */
	record Receipt(long bytes, String sha256) {
	}

}
