package io.khamsin.container.compression;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import io.netty.buffer.ByteBuf;

/**
 * Bodies for the encoder tests: JSON that compresses as an application's does, and random bytes that do not.
 */
final class Bodies {

	private Bodies() {
	}

	static byte[] json(int size) {
		StringBuilder json = new StringBuilder(size + 128).append('[');
		Random random = new Random(size);
		for (int i = 0; json.length() < size; i++) {
			json.append((i > 0) ? "," : "")
				.append("{\"id\":")
				.append(i)
				.append(",\"name\":\"item-")
				.append(random.nextInt(1000))
				.append("\",\"price\":")
				.append(random.nextInt(100_000) / 100.0)
				.append(",\"tags\":[\"a\",\"b\"]}");
		}
		byte[] bytes = json.append(']').toString().getBytes(StandardCharsets.UTF_8);
		return java.util.Arrays.copyOf(bytes, size);
	}

	static byte[] random(int size) {
		return random(size, size);
	}

	static byte[] random(int size, long seed) {
		byte[] bytes = new byte[size];
		new Random(seed).nextBytes(bytes);
		return bytes;
	}

	static byte[] drain(ByteBuf buffer) {
		try {
			byte[] bytes = new byte[buffer.readableBytes()];
			buffer.readBytes(bytes);
			return bytes;
		}
		finally {
			buffer.release();
		}
	}

}
