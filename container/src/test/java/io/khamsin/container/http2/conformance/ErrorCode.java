package io.khamsin.container.http2.conformance;

/**
 * The error codes of RFC 9113 section 7, as RST_STREAM and GOAWAY carry them.
 */
enum ErrorCode {

	NO_ERROR(0x0), PROTOCOL_ERROR(0x1), INTERNAL_ERROR(0x2), FLOW_CONTROL_ERROR(0x3), SETTINGS_TIMEOUT(0x4),
	STREAM_CLOSED(0x5), FRAME_SIZE_ERROR(0x6), REFUSED_STREAM(0x7), CANCEL(0x8), COMPRESSION_ERROR(0x9),
	CONNECT_ERROR(0xa), ENHANCE_YOUR_CALM(0xb), INADEQUATE_SECURITY(0xc), HTTP_1_1_REQUIRED(0xd);

	private final int code;

	ErrorCode(int code) {
		this.code = code;
	}

	int code() {
		return this.code;
	}

	/** @return the name of a code on the wire, or its number when RFC 9113 does not define it */
	static String describe(long code) {
		for (ErrorCode candidate : values()) {
			if (candidate.code == code) {
				return candidate.name();
			}
		}
		return "UNKNOWN(0x" + Long.toHexString(code) + ")";
	}

	static boolean matches(long code, ErrorCode... accepted) {
		for (ErrorCode candidate : accepted) {
			if (candidate.code == code) {
				return true;
			}
		}
		return false;
	}

}
