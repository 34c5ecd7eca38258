package io.khamsin.container.ktls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The part of the TLS 1.3 key schedule (RFC 8446 section 7.1) that a connection handing its records to the
 * kernel needs once the handshake has produced its traffic secrets: the traffic keys of a secret (section 7.3),
 * the next generation of a secret after a {@code KeyUpdate} (section 7.2), and {@code Derive-Secret}, all built
 * on {@code HKDF-Expand-Label} over the suite's HMAC (RFC 5869).
 */
public final class KeySchedule {

	private static final byte[] LABEL_PREFIX = "tls13 ".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] NO_CONTEXT = new byte[0];

	private KeySchedule() {
	}

	/**
	 * The write key and IV of a traffic secret: {@code HKDF-Expand-Label(secret, "key", "", key_length)} and
	 * {@code HKDF-Expand-Label(secret, "iv", "", 12)}.
	 * @param cipher the negotiated cipher
	 * @param secret a traffic secret, e.g. {@code server_application_traffic_secret_0}
	 * @return its keys
	 */
	public static TrafficKeys trafficKeys(KernelTlsCipher cipher, byte[] secret) {
		return new TrafficKeys(cipher, expandLabel(cipher, secret, "key", NO_CONTEXT, cipher.keyLength()),
				expandLabel(cipher, secret, "iv", NO_CONTEXT, KernelTlsCipher.NONCE_LENGTH));
	}

	/**
	 * The secret that follows a traffic secret once a {@code KeyUpdate} is sent or received:
	 * {@code HKDF-Expand-Label(secret, "traffic upd", "", Hash.length)}.
	 * @param cipher the negotiated cipher
	 * @param secret the secret in use
	 * @return the next one, whose keys seal the records that follow the {@code KeyUpdate}, from sequence 0
	 */
	public static byte[] nextGeneration(KernelTlsCipher cipher, byte[] secret) {
		return expandLabel(cipher, secret, "traffic upd", NO_CONTEXT, cipher.hashLength());
	}

	/**
	 * {@code Derive-Secret(secret, label, messages)}, given the transcript hash of the messages.
	 * @param cipher the negotiated cipher
	 * @param secret the secret derived from
	 * @param label the label without its {@code "tls13 "} prefix, e.g. {@code "s ap traffic"}
	 * @param transcriptHash the hash of the handshake messages so far
	 * @return the derived secret
	 */
	public static byte[] deriveSecret(KernelTlsCipher cipher, byte[] secret, String label, byte[] transcriptHash) {
		return expandLabel(cipher, secret, label, transcriptHash, cipher.hashLength());
	}

	/**
	 * {@code HKDF-Expand-Label(secret, label, context, length)}: HKDF-Expand over the suite's HMAC with the info
	 * {@code uint16 length || opaque label<7..255> ("tls13 " + label) || opaque context<0..255>}.
	 * @param cipher the negotiated cipher, whose hash the HMAC uses
	 * @param secret the pseudorandom key
	 * @param label the label without its prefix
	 * @param context the context, often empty
	 * @param length how many bytes to produce
	 * @return the bytes
	 */
	static byte[] expandLabel(KernelTlsCipher cipher, byte[] secret, String label, byte[] context, int length) {
		byte[] labelBytes = label.getBytes(StandardCharsets.US_ASCII);
		int labelLength = LABEL_PREFIX.length + labelBytes.length;
		if (labelLength > 255 || context.length > 255 || length > 255 * cipher.hashLength()) {
			throw new IllegalArgumentException("HKDF-Expand-Label input out of range: label '" + label + "', "
					+ context.length + " bytes of context, " + length + " bytes asked");
		}
		ByteBuffer info = ByteBuffer.allocate(2 + 1 + labelLength + 1 + context.length);
		info.putShort((short) length).put((byte) labelLength).put(LABEL_PREFIX).put(labelBytes);
		info.put((byte) context.length).put(context);
		return expand(cipher.hmac(), secret, info.array(), length);
	}

	private static byte[] expand(String hmac, byte[] secret, byte[] info, int length) {
		try {
			Mac mac = Mac.getInstance(hmac);
			mac.init(new SecretKeySpec(secret, hmac));
			byte[] out = new byte[length];
			byte[] block = new byte[0];
			int written = 0;
			for (int counter = 1; written < length; counter++) {
				mac.update(block);
				mac.update(info);
				mac.update((byte) counter);
				block = mac.doFinal();
				int take = Math.min(block.length, length - written);
				System.arraycopy(block, 0, out, written, take);
				written += take;
			}
			return out;
		}
		catch (GeneralSecurityException ex) {
			// Every JDK provides HmacSHA256 and HmacSHA384.
			throw new IllegalStateException("HKDF over " + hmac + " is not available: " + ex.getMessage(), ex);
		}
	}

}
