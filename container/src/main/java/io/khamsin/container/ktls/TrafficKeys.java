package io.khamsin.container.ktls;

import java.util.Arrays;

/**
 * The key and IV one direction of a TLS 1.3 connection seals its records with, derived from that direction's
 * traffic secret ({@link KeySchedule#trafficKeys}).
 *
 * @param cipher the cipher they are for
 * @param key the write key
 * @param iv the 12-byte write IV, from which each record's nonce is made
 */
public record TrafficKeys(KernelTlsCipher cipher, byte[] key, byte[] iv) {

	public TrafficKeys {
		if (key.length != cipher.keyLength()) {
			throw new IllegalArgumentException(
					cipher + " takes a " + cipher.keyLength() + "-byte key, not " + key.length + " bytes");
		}
		if (iv.length != KernelTlsCipher.NONCE_LENGTH) {
			throw new IllegalArgumentException("a TLS 1.3 IV has " + KernelTlsCipher.NONCE_LENGTH + " bytes, not "
					+ iv.length);
		}
		key = key.clone();
		iv = iv.clone();
	}

	@Override
	public byte[] key() {
		return this.key.clone();
	}

	@Override
	public byte[] iv() {
		return this.iv.clone();
	}

	/**
	 * The nonce of one record (RFC 8446 section 5.3): the 64-bit record sequence, big-endian and left-padded to
	 * the IV's length, XORed with the IV.
	 * @param sequence the record's sequence number in this direction, from 0 for the first record under these keys
	 * @return its nonce
	 */
	public byte[] nonce(long sequence) {
		byte[] nonce = this.iv.clone();
		for (int i = 0; i < Long.BYTES; i++) {
			nonce[nonce.length - 1 - i] ^= (byte) (sequence >>> (8 * i));
		}
		return nonce;
	}

	/** Overwrite the key and IV this object holds: it is not used after. */
	public void destroy() {
		Arrays.fill(this.key, (byte) 0);
		Arrays.fill(this.iv, (byte) 0);
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof TrafficKeys keys && keys.cipher == this.cipher && Arrays.equals(keys.key, this.key)
				&& Arrays.equals(keys.iv, this.iv);
	}

	@Override
	public int hashCode() {
		return 31 * this.cipher.hashCode() + Arrays.hashCode(this.key);
	}

	@Override
	public String toString() {
		// Keys never reach a log line.
		return "TrafficKeys[" + this.cipher + "]";
	}

}
