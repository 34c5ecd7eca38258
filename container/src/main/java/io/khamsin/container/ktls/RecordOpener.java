package io.khamsin.container.ktls;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opens TLS 1.3 records sealed with one set of traffic keys (RFC 8446 section 5.2): a record's header is its
 * additional data, its nonce the keys' IV XORed with its sequence number. Opening tells which sequence number a
 * record was sealed at, which is how a connection's next sequence number is known exactly when the kernel takes
 * the connection over: the TLS stack in user space does not say how many records it has sealed.
 */
public final class RecordOpener {

	/** The length of a record's header: type, legacy version, length. */
	public static final int HEADER_LENGTH = 5;

	/** The outer type of every TLS 1.3 record sealed with traffic keys. */
	public static final int APPLICATION_DATA = 23;

	private final TrafficKeys keys;

	private final Cipher cipher;

	private final SecretKeySpec key;

	/**
	 * @param keys the keys the records were sealed with
	 */
	public RecordOpener(TrafficKeys keys) {
		this.keys = keys;
		this.key = new SecretKeySpec(keys.key(), keys.cipher().keyAlgorithm());
		try {
			this.cipher = Cipher.getInstance(keys.cipher().transformation());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(keys.cipher().transformation() + " is not available in this JVM", ex);
		}
	}

	/**
	 * Open one record.
	 * @param record the whole record, header included
	 * @param sequence the sequence number it is tried at
	 * @return its inner plaintext (content, then the inner content type, then any zero padding), or {@code null} if
	 * it was not sealed with these keys at that sequence number
	 * @throws IllegalArgumentException if it is not a whole TLS 1.3 sealed record
	 */
	public byte[] open(byte[] record, long sequence) {
		if (record.length < HEADER_LENGTH + KernelTlsCipher.TAG_LENGTH || record[0] != APPLICATION_DATA
				|| ((record[3] & 0xff) << 8 | (record[4] & 0xff)) != record.length - HEADER_LENGTH) {
			throw new IllegalArgumentException("not a whole sealed TLS 1.3 record (" + record.length + " bytes)");
		}
		try {
			this.cipher.init(Cipher.DECRYPT_MODE, this.key, this.keys.cipher().parameters(this.keys.nonce(sequence)));
			this.cipher.updateAAD(record, 0, HEADER_LENGTH);
			return this.cipher.doFinal(record, HEADER_LENGTH, record.length - HEADER_LENGTH);
		}
		catch (AEADBadTagException ex) {
			return null;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("opening a record with " + this.keys.cipher() + " failed", ex);
		}
	}

	/**
	 * The inner content type of an opened record: its last non-zero byte (RFC 8446 section 5.4).
	 * @param inner what {@link #open} returned
	 * @return the type, e.g. 23 for application data or 22 for a handshake message; 0 if there is none
	 */
	public static int innerType(byte[] inner) {
		for (int i = inner.length - 1; i >= 0; i--) {
			if (inner[i] != 0) {
				return inner[i] & 0xff;
			}
		}
		return 0;
	}

	/**
	 * The content of an opened record, without its inner type and padding.
	 * @param inner what {@link #open} returned
	 * @return the content
	 */
	public static byte[] content(byte[] inner) {
		int end = inner.length - 1;
		while (end >= 0 && inner[end] == 0) {
			end--;
		}
		return Arrays.copyOf(inner, Math.max(end, 0));
	}

}
