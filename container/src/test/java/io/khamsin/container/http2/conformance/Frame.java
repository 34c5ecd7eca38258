package io.khamsin.container.http2.conformance;

import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.http2.Http2Headers;

/**
 * One frame as the server sent it (RFC 9113 section 4.1), its payload copied off the wire so that nothing in the
 * client holds a buffer. A HEADERS, PUSH_PROMISE or CONTINUATION frame that ends a header block carries the fields
 * the block decoded to.
 *
 * @param type the frame type
 * @param flags the flags
 * @param streamId the stream identifier, reserved bit cleared
 * @param payload the payload, padding included
 * @param headers the decoded header block when this frame ends one, else {@code null}
 */
record Frame(int type, int flags, int streamId, byte[] payload, Http2Headers headers) {

	static final int DATA = 0x0;

	static final int HEADERS = 0x1;

	static final int PRIORITY = 0x2;

	static final int RST_STREAM = 0x3;

	static final int SETTINGS = 0x4;

	static final int PUSH_PROMISE = 0x5;

	static final int PING = 0x6;

	static final int GOAWAY = 0x7;

	static final int WINDOW_UPDATE = 0x8;

	static final int CONTINUATION = 0x9;

	static final int FLAG_END_STREAM = 0x1;

	static final int FLAG_ACK = 0x1;

	static final int FLAG_END_HEADERS = 0x4;

	static final int FLAG_PADDED = 0x8;

	static final int FLAG_PRIORITY = 0x20;

	boolean is(int frameType) {
		return this.type == frameType;
	}

	boolean hasFlag(int flag) {
		return (this.flags & flag) != 0;
	}

	boolean endsStream() {
		return (this.type == DATA || this.type == HEADERS) && hasFlag(FLAG_END_STREAM);
	}

	boolean isAck() {
		return (this.type == SETTINGS || this.type == PING) && hasFlag(FLAG_ACK);
	}

	/** @return the error code of a RST_STREAM or GOAWAY frame */
	long errorCode() {
		int offset = (this.type == GOAWAY) ? 4 : 0;
		return readUnsigned(offset);
	}

	/** @return the last stream identifier of a GOAWAY frame */
	int lastStreamId() {
		return (int) (readUnsigned(0) & 0x7fffffffL);
	}

	/** @return the data of a DATA frame, padding removed */
	byte[] data() {
		if (!hasFlag(FLAG_PADDED)) {
			return this.payload;
		}
		int padLength = this.payload[0] & 0xff;
		byte[] data = new byte[this.payload.length - 1 - padLength];
		System.arraycopy(this.payload, 1, data, 0, data.length);
		return data;
	}

	private long readUnsigned(int offset) {
		if (this.payload.length < offset + 4) {
			return -1;
		}
		return ((this.payload[offset] & 0xffL) << 24) | ((this.payload[offset + 1] & 0xffL) << 16)
				| ((this.payload[offset + 2] & 0xffL) << 8) | (this.payload[offset + 3] & 0xffL);
	}

	static String typeName(int type) {
		return switch (type) {
			case DATA -> "DATA";
			case HEADERS -> "HEADERS";
			case PRIORITY -> "PRIORITY";
			case RST_STREAM -> "RST_STREAM";
			case SETTINGS -> "SETTINGS";
			case PUSH_PROMISE -> "PUSH_PROMISE";
			case PING -> "PING";
			case GOAWAY -> "GOAWAY";
			case WINDOW_UPDATE -> "WINDOW_UPDATE";
			case CONTINUATION -> "CONTINUATION";
			default -> "UNKNOWN(0x" + Integer.toHexString(type) + ")";
		};
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(typeName(this.type)).append("(stream=")
			.append(this.streamId)
			.append(", flags=0x")
			.append(Integer.toHexString(this.flags))
			.append(", length=")
			.append(this.payload.length);
		if (this.type == RST_STREAM || this.type == GOAWAY) {
			text.append(", error=").append(ErrorCode.describe(errorCode()));
		}
		if (this.type == GOAWAY) {
			text.append(", lastStream=").append(lastStreamId());
			if (this.payload.length > 8) {
				String debug = new String(this.payload, 8, Math.min(this.payload.length - 8, 120),
						StandardCharsets.UTF_8);
				text.append(", debug=\"").append(debug).append('"');
			}
		}
		if (this.headers != null) {
			text.append(", headers=").append(this.headers);
		}
		return text.append(')').toString();
	}

}
