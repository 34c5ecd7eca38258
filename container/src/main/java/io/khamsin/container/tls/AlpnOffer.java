package io.khamsin.container.tls;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The application protocols a ClientHello offers by ALPN (RFC 7301 section 3.1), read from the raw message before
 * the handshake starts, so that a client that offers only protocols the listener does not speak gets the fatal
 * {@code no_application_protocol} alert of section 3.2 from either provider: Netty lets BoringSSL only go on without
 * ALPN in that case. A client that sends no ALPN extension is not refused (it speaks HTTP/1.1).
 */
final class AlpnOffer {

	private static final int ALPN_EXTENSION = 16;

	/** A TLS plaintext alert record (RFC 8446 section 5.1 and 6): fatal (2), no_application_protocol (120). */
	private static final byte[] NO_APPLICATION_PROTOCOL = { 21, 3, 3, 0, 2, 2, 120 };

	private final List<byte[]> served = new ArrayList<>();

	/**
	 * @param served the protocols the listener offers
	 */
	AlpnOffer(List<String> served) {
		for (String protocol : served) {
			this.served.add(protocol.getBytes(StandardCharsets.US_ASCII));
		}
	}

	/**
	 * Whether a ClientHello offers protocols by ALPN and none of them is served.
	 * @param hello the ClientHello's body, from its {@code legacy_version} on (RFC 8446 section 4.1.2)
	 * @return {@code true} only for a well-formed ALPN extension with no protocol in common
	 */
	boolean noneServed(ByteBuf hello) {
		int list = protocolList(hello);
		if (list < 0) {
			return false;
		}
		int end = list + 2 + hello.getUnsignedShort(list);
		for (int at = list + 2; at < end; at += 1 + hello.getUnsignedByte(at)) {
			if (isServed(hello, at + 1, hello.getUnsignedByte(at))) {
				return false;
			}
		}
		return true;
	}

	private boolean isServed(ByteBuf hello, int at, int length) {
		for (byte[] protocol : this.served) {
			if (protocol.length == length && equals(hello, at, protocol)) {
				return true;
			}
		}
		return false;
	}

	private static boolean equals(ByteBuf hello, int at, byte[] protocol) {
		for (int i = 0; i < protocol.length; i++) {
			if (hello.getByte(at + i) != protocol[i]) {
				return false;
			}
		}
		return true;
	}

	/**
	 * @param hello a ClientHello's body
	 * @return the protocols it offers, comma-separated, for a log line
	 */
	static String offered(ByteBuf hello) {
		StringJoiner names = new StringJoiner(",");
		int list = protocolList(hello);
		if (list >= 0) {
			int end = list + 2 + hello.getUnsignedShort(list);
			for (int at = list + 2; at < end; at += 1 + hello.getUnsignedByte(at)) {
				names.add(hello.toString(at + 1, hello.getUnsignedByte(at), StandardCharsets.US_ASCII));
			}
		}
		return names.toString();
	}

	/** @return the alert record to send before closing */
	static ByteBuf alert() {
		return Unpooled.wrappedBuffer(NO_APPLICATION_PROTOCOL);
	}

	/**
	 * Where the ALPN extension's ProtocolNameList starts, checked to lie within the message and to hold whole,
	 * non-empty names; -1 when there is none or the message is malformed (the TLS stack then says so itself).
	 */
	private static int protocolList(ByteBuf hello) {
		int end = hello.writerIndex();
		// legacy_version (2), random (32), then legacy_session_id<0..32>.
		int at = hello.readerIndex() + 34;
		if (at + 1 > end) {
			return -1;
		}
		at += 1 + hello.getUnsignedByte(at);
		if (at + 2 > end) {
			return -1;
		}
		at += 2 + hello.getUnsignedShort(at);
		if (at + 1 > end) {
			return -1;
		}
		at += 1 + hello.getUnsignedByte(at);
		if (at + 2 > end) {
			return -1;
		}
		int extensionsEnd = at + 2 + hello.getUnsignedShort(at);
		at += 2;
		if (extensionsEnd > end) {
			return -1;
		}
		while (at + 4 <= extensionsEnd) {
			int type = hello.getUnsignedShort(at);
			int length = hello.getUnsignedShort(at + 2);
			at += 4;
			if (at + length > extensionsEnd) {
				return -1;
			}
			if (type == ALPN_EXTENSION) {
				return isWellFormed(hello, at, length) ? at : -1;
			}
			at += length;
		}
		return -1;
	}

	private static boolean isWellFormed(ByteBuf hello, int at, int length) {
		if (length <= 2 || hello.getUnsignedShort(at) != length - 2) {
			return false;
		}
		int end = at + length;
		for (int name = at + 2; name < end; name += 1 + hello.getUnsignedByte(name)) {
			int size = hello.getUnsignedByte(name);
			if (size == 0 || name + 1 + size > end) {
				return false;
			}
		}
		return true;
	}

}
