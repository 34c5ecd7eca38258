package io.khamsin.container.http3;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.Http3Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole response's frames: field sections as RFC 9204's examples and rules encode them with the static table
 * only, QUIC variable-length integers at each length boundary, and the HEADERS and DATA frames in one buffer.
 */
class Http3FramesTests {

	@Test
	void aPathOutsideTheStaticTableIsALiteralWithANameReferenceAsInRfc9204AppendixB1() {
		Http3Headers headers = new DefaultHttp3Headers(false).path("/index.html");
		assertThat(fieldSection(headers)).isEqualTo("0000510b2f696e6465782e68746d6c");
	}

	@Test
	void aFieldTheStaticTableHoldsWholeIsOneIndexedLine() {
		Http3Headers headers = new DefaultHttp3Headers(false).status("200");
		headers.add("content-type", "text/plain;charset=utf-8");
		headers.add("vary", "accept-encoding");
		// :status 200 is entry 25, content-type text/plain;charset=utf-8 entry 54, vary accept-encoding entry 59.
		assertThat(fieldSection(headers)).isEqualTo("0000" + "d9" + "f6" + "fb");
	}

	@Test
	void aNameTheTableDoesNotHoldIsALiteralWhoseLengthContinuesPastItsThreeBitPrefix() {
		Http3Headers headers = new DefaultHttp3Headers(false);
		headers.add("x-custom", "v");
		// 0010 0111: a literal name whose length fills the 3-bit prefix (7), then 1 more: 8.
		assertThat(fieldSection(headers)).isEqualTo("0000" + "2701" + hex("x-custom") + "01" + hex("v"));
	}

	@Test
	void aValueLongerThanItsPrefixTakesContinuationBytes() {
		String value = "a".repeat(200);
		Http3Headers headers = new DefaultHttp3Headers(false);
		headers.add("location", value);
		// location is entry 12: 0101 1100; 200 = 127 + 73: 7f 49.
		assertThat(fieldSection(headers)).isEqualTo("0000" + "5c" + "7f49" + hex(value));
	}

	@Test
	void variableLengthIntegersTakeTheShortestFormAtEachBoundary() {
		assertThat(varInt(63)).isEqualTo("3f");
		assertThat(varInt(64)).isEqualTo("4040");
		assertThat(varInt(16383)).isEqualTo("7fff");
		assertThat(varInt(16384)).isEqualTo("80004000");
		assertThat(varInt(1073741823)).isEqualTo("bfffffff");
		assertThat(varInt(1073741824)).isEqualTo("c000000040000000");
	}

	@Test
	void aResponseWithABodyIsAHeadersFrameThenADataFrameInOneBuffer() {
		Http3Headers headers = new DefaultHttp3Headers(false).status("200");
		ByteBuf body = Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII);
		ByteBuf frames = Http3Frames.response(ByteBufAllocator.DEFAULT, headers, body);
		try {
			assertThat(body.refCnt()).isZero();
			assertThat(frames.isDirect()).isTrue();
			assertThat(ByteBufUtil.hexDump(frames)).isEqualTo("0103" + "0000d9" + "000d" + hex("Hello, World!"));
		}
		finally {
			frames.release();
		}
	}

	@Test
	void aResponseWithoutABodyIsItsHeadersFrameAlone() {
		Http3Headers headers = new DefaultHttp3Headers(false).status("304");
		ByteBuf frames = Http3Frames.response(ByteBufAllocator.DEFAULT, headers, Unpooled.EMPTY_BUFFER);
		try {
			assertThat(ByteBufUtil.hexDump(frames)).isEqualTo("0103" + "0000da");
		}
		finally {
			frames.release();
		}
	}

	@Test
	void aBodyLongerThanTheCopyLimitFollowsTheHeadUncopied() {
		byte[] bytes = new byte[Http3Frames.COPY_LIMIT + 1];
		bytes[bytes.length - 1] = 7;
		ByteBuf body = ByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
		ByteBuf frames = Http3Frames.response(ByteBufAllocator.DEFAULT, new DefaultHttp3Headers(false).status("200"),
				body);
		try {
			assertThat(body.refCnt()).isOne();
			assertThat(frames.readableBytes()).isEqualTo(5 + 1 + 2 + bytes.length);
			// The DATA frame's length, 4,097, in two bytes: 0x4000 | 0x1001.
			assertThat(ByteBufUtil.hexDump(frames, frames.readerIndex(), 8)).isEqualTo("0103" + "0000d9" + "00" + "5001");
			assertThat(frames.getByte(frames.writerIndex() - 1)).isEqualTo((byte) 7);
		}
		finally {
			frames.release();
		}
		assertThat(body.refCnt()).isZero();
	}

	private static String fieldSection(Http3Headers headers) {
		ByteBuf out = Unpooled.buffer();
		try {
			Http3Frames.fieldSection(headers, out);
			return ByteBufUtil.hexDump(out);
		}
		finally {
			out.release();
		}
	}

	private static String varInt(long value) {
		ByteBuf out = Unpooled.buffer();
		try {
			Http3Frames.writeVarInt(out, value);
			assertThat(out.readableBytes()).isEqualTo(Http3Frames.varIntLength(value));
			return ByteBufUtil.hexDump(out);
		}
		finally {
			out.release();
		}
	}

	private static String hex(String value) {
		return ByteBufUtil.hexDump(value.getBytes(StandardCharsets.ISO_8859_1));
	}

}
