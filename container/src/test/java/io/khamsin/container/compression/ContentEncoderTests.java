package io.khamsin.container.compression;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.EncoderException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Every coding round-trips through an independent decoder: whole bodies, bodies written in parts, flushed streams
 * whose every flush decodes on arrival, and every buffer released on success, failure and cancel (the leak
 * detector runs at PARANOID).
 */
class ContentEncoderTests {

	private static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

	private static final CompressionConfig CONFIG = CompressionConfig.of(true, List.of(), 0, List.of());

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void aWholeBodyDecodesToItselfAndShrinks(ContentCoding coding) {
		byte[] body = Bodies.json(200_000);
		byte[] coded = Bodies.drain(encoder(coding).encodeWhole(direct(body)));
		assertThat(Decoders.decodeWhole(coding, coded)).isEqualTo(body);
		assertThat(coded.length).isLessThan(body.length / 3);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void incompressibleBytesRoundTripAndGrowOnlyByTheFraming(ContentCoding coding) {
		byte[] body = Bodies.random(300_000);
		byte[] coded = Bodies.drain(encoder(coding).encodeWhole(direct(body)));
		assertThat(Decoders.decodeWhole(coding, coded)).isEqualTo(body);
		assertThat(coded.length).isLessThan(body.length + body.length / 100 + 64);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void anEmptyBodyIsAValidEmptyStream(ContentCoding coding) {
		byte[] whole = Bodies.drain(encoder(coding).encodeWhole(Unpooled.EMPTY_BUFFER));
		assertThat(Decoders.decodeWhole(coding, whole)).isEmpty();
		byte[] finished = Bodies.drain(encoder(coding).finish());
		assertThat(Decoders.decodeWhole(coding, finished)).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void aBodyWrittenInPartsDecodesToTheWhole(ContentCoding coding) {
		byte[] body = Bodies.json(500_000);
		ContentEncoder encoder = encoder(coding);
		ByteArrayOutputStream coded = new ByteArrayOutputStream();
		int[] sizes = { 1, 17, 4096, 65536, 100_000, 3 };
		int offset = 0;
		for (int i = 0; offset < body.length; i++) {
			int size = Math.min(sizes[i % sizes.length], body.length - offset);
			byte[] part = Arrays.copyOfRange(body, offset, offset + size);
			// Heap, direct and composite parts, as an application's buffers come.
			ByteBuf input = switch (i % 3) {
				case 0 -> direct(part);
				case 1 -> Unpooled.wrappedBuffer(part);
				default -> composite(part);
			};
			coded.writeBytes(Bodies.drain(encoder.encode(input)));
			offset += size;
		}
		coded.writeBytes(Bodies.drain(encoder.finish()));
		assertThat(Decoders.decodeWhole(coding, coded.toByteArray())).isEqualTo(body);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void eachFlushedEventDecodesOnArrival(ContentCoding coding) {
		ContentEncoder encoder = encoder(coding);
		ByteArrayOutputStream coded = new ByteArrayOutputStream();
		try (Decoders.Incremental client = Decoders.incremental(coding)) {
			for (int i = 0; i < 50; i++) {
				byte[] event = ("id: " + i + "\nevent: price\ndata: {\"symbol\":\"KHM\",\"price\":" + (100 + i)
						+ "}\n\n").getBytes(StandardCharsets.UTF_8);
				byte[] written = Bodies.drain(encoder.encode(direct(event)));
				byte[] flushed = Bodies.drain(encoder.flush());
				coded.writeBytes(written);
				coded.writeBytes(flushed);
				byte[] arrived = new byte[written.length + flushed.length];
				System.arraycopy(written, 0, arrived, 0, written.length);
				System.arraycopy(flushed, 0, arrived, written.length, flushed.length);
				assertThat(new String(client.feed(arrived), StandardCharsets.UTF_8))
					.isEqualTo(new String(event, StandardCharsets.UTF_8));
			}
			byte[] last = Bodies.drain(encoder.finish());
			coded.writeBytes(last);
			assertThat(client.feed(last)).isEmpty();
		}
		assertThat(Decoders.decodeWhole(coding, coded.toByteArray())).asString(StandardCharsets.UTF_8)
			.startsWith("id: 0\n")
			.endsWith("\"price\":149}\n\n");
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void smallEventsCompressAgainstTheEventsBeforeThem(ContentCoding coding) {
		ContentEncoder encoder = encoder(coding);
		int identity = 0;
		int coded = 0;
		for (int i = 0; i < 200; i++) {
			byte[] event = ("data: {\"symbol\":\"KHM\",\"price\":" + (100 + i % 7) + ",\"venue\":\"XKHM\"}\n\n")
				.getBytes(StandardCharsets.UTF_8);
			identity += event.length;
			coded += Bodies.drain(encoder.encode(direct(event))).length;
			coded += Bodies.drain(encoder.flush()).length;
		}
		coded += Bodies.drain(encoder.finish()).length;
		// One stream for the whole response: a flushed event costs a few bytes, not a fresh start.
		assertThat(coded).isLessThan(identity / 3);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void anEncoderClosedMidStreamReleasesEverythingAndRefusesMore(ContentCoding coding) {
		ContentEncoder encoder = encoder(coding);
		Bodies.drain(encoder.encode(direct(Bodies.json(100_000))));
		encoder.close();
		encoder.close();
		ByteBuf late = direct(Bodies.json(10));
		assertThatIllegalStateException().isThrownBy(() -> encoder.encode(late)).withMessageContaining("closed");
		assertThat(late.refCnt()).isZero();
		assertThatIllegalStateException().isThrownBy(encoder::flush);
		assertThatIllegalStateException().isThrownBy(encoder::finish);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void aFinishedEncoderIsClosed(ContentCoding coding) {
		ContentEncoder encoder = encoder(coding);
		Bodies.drain(encoder.finish());
		assertThatIllegalStateException().isThrownBy(encoder::flush);
		encoder.close();
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void aFailureMidStreamReleasesTheInputAndTheOutputAndClosesTheEncoder(ContentCoding coding) {
		// Output buffers that cannot grow: the coding fails as it would when memory runs out.
		ContentEncoder encoder = AbstractContentEncoder.create(coding, CONFIG, new FixedCapacityAllocator());
		List<ByteBuf> inputs = new ArrayList<>();
		assertThatExceptionOfType(EncoderException.class).isThrownBy(() -> {
			for (int i = 0; i < 64; i++) {
				ByteBuf input = direct(Bodies.random(64 * 1024, i));
				inputs.add(input);
				Bodies.drain(encoder.encode(input));
			}
		}).withMessageContaining(coding.token());
		assertThat(inputs).allSatisfy((input) -> assertThat(input.refCnt()).isZero());
		assertThatIllegalStateException().isThrownBy(encoder::finish);
	}

	@ParameterizedTest
	@EnumSource(value = ContentCoding.class, mode = EnumSource.Mode.EXCLUDE, names = "IDENTITY")
	void aFailedWholeBodyReleasesTheBody(ContentCoding coding) {
		ContentEncoder encoder = AbstractContentEncoder.create(coding, CONFIG, new FixedCapacityAllocator());
		ByteBuf body = direct(Bodies.random(256 * 1024));
		assertThatExceptionOfType(EncoderException.class).isThrownBy(() -> encoder.encodeWhole(body));
		assertThat(body.refCnt()).isZero();
	}

	private static ContentEncoder encoder(ContentCoding coding) {
		return AbstractContentEncoder.create(coding, CONFIG, ALLOCATOR);
	}

	private static ByteBuf direct(byte[] bytes) {
		return ALLOCATOR.directBuffer(bytes.length).writeBytes(bytes);
	}

	private static ByteBuf composite(byte[] bytes) {
		CompositeByteBuf composite = ALLOCATOR.compositeBuffer();
		int half = bytes.length / 2;
		composite.addComponent(true, ALLOCATOR.heapBuffer().writeBytes(bytes, 0, half));
		composite.addComponent(true, ALLOCATOR.directBuffer().writeBytes(bytes, half, bytes.length - half));
		return composite;
	}

}
