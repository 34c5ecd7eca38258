package io.khamsin.sample;

import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * SHA-256 as lower-case hex, the form {@code POST /upload} answers.
 */
final class Digests {

	private Digests() {
	}

	static String sha256(byte[] bytes) {
		return HexFormat.of().formatHex(sha256().digest(bytes));
	}

	static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
