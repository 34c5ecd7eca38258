package io.khamsin.container.http2.conformance;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;

/**
 * One connection's HPACK state (RFC 7541), on Netty's encoder and decoder: valid blocks with indexing and Huffman
 * coding as a browser sends them, and the server's blocks decoded in the order they arrive so that the dynamic
 * tables stay in step. Neither side validates fields: the catalogue decides what a valid field is.
 */
final class HpackCodec {

	private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(
			Http2HeadersEncoder.NEVER_SENSITIVE, true);

	private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false, false, 0xffffffffL);

	byte[] encode(Http2Headers headers) {
		ByteBuf block = PooledByteBufAllocator.DEFAULT.heapBuffer();
		try {
			this.encoder.encodeHeaders(0, headers, block);
			return ByteBufUtil.getBytes(block);
		}
		catch (Http2Exception ex) {
			throw new IllegalArgumentException("Cannot encode " + headers, ex);
		}
		finally {
			block.release();
		}
	}

	Http2Headers decode(int streamId, byte[] block) throws Http2Exception {
		ByteBuf buffer = PooledByteBufAllocator.DEFAULT.heapBuffer(block.length);
		try {
			buffer.writeBytes(block);
			return this.decoder.decodeHeaders(streamId, buffer);
		}
		finally {
			buffer.release();
		}
	}

}
