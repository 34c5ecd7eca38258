package io.khamsin.container.bridge;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A range of a file read in chunks: exactly its bytes, in chunks no larger than asked, and an error after the bytes
 * it has where the file ends before the range.
 */
class FileChunksTests {

	private static final NettyDataBufferFactory factory = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

	@TempDir
	static Path dir;

	private static Path file;

	private static byte[] content;

	@BeforeAll
	static void writeFile() throws Exception {
		content = new byte[100_000];
		new Random(3).nextBytes(content);
		file = Files.write(dir.resolve("chunks.bin"), content);
	}

	@Test
	void aRangeInTheMiddleArrivesExactlyInChunksOfAtMostTheSize() {
		List<DataBuffer> chunks = FileChunks.read(file, 1_000, 50_001, factory, 16_384).collectList().block(Duration.ofSeconds(10));
		assertThat(chunks).extracting(DataBuffer::readableByteCount).containsExactly(16_384, 16_384, 16_384, 849);
		assertThat(join(chunks)).isEqualTo(Arrays.copyOfRange(content, 1_000, 51_001));
	}

	@Test
	void aFileEndingBeforeItsRangeGivesTheBytesItHasThenAnError() {
		List<DataBuffer> chunks = new java.util.ArrayList<>();
		StepVerifier.create(FileChunks.read(file, 90_000, 20_000, factory, 65_536))
			.recordWith(() -> chunks)
			.expectNextCount(1)
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(EOFException.class)
				.hasMessageContaining("10000 bytes before"))
			.verify(Duration.ofSeconds(10));
		assertThat(join(chunks)).isEqualTo(Arrays.copyOfRange(content, 90_000, 100_000));
	}

	@Test
	void anEmptyRangeIsAnEmptyBody() {
		StepVerifier.create(FileChunks.read(file, 0, 0, factory, 65_536)).expectComplete().verify(Duration.ofSeconds(10));
	}

	@Test
	void aMissingFileIsAnError() {
		StepVerifier.create(FileChunks.read(dir.resolve("missing.bin"), 0, 10, factory, 65_536))
			.expectError(NoSuchFileException.class)
			.verify(Duration.ofSeconds(10));
	}

	private static byte[] join(List<DataBuffer> chunks) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (DataBuffer chunk : chunks) {
			byte[] bytes = new byte[chunk.readableByteCount()];
			chunk.read(bytes);
			out.writeBytes(bytes);
			DataBufferUtils.release(chunk);
		}
		return out.toByteArray();
	}

}
