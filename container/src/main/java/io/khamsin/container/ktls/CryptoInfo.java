package io.khamsin.container.ktls;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The value of the {@code SOL_TLS} socket options {@code TLS_TX} and {@code TLS_RX} for a TLS 1.3 connection: the
 * kernel's {@code struct tls12_crypto_info_aes_gcm_128}, {@code _aes_gcm_256} or {@code _chacha20_poly1305}
 * ({@code linux/tls.h}). Each starts with {@code struct tls_crypto_info}, two {@code __u16} in the machine's own
 * byte order ({@code version}, {@code 0x0304} for TLS 1.3, and {@code cipher_type}), followed by byte arrays:
 * {@code iv}, {@code key}, {@code salt} and the 8-byte {@code rec_seq}, the sequence number of the next record,
 * big-endian as it goes into the nonce. There is no padding: every member after the header is a byte array.
 */
public final class CryptoInfo {

	/** {@code SOL_TLS}, from {@code linux/socket.h}. */
	public static final int SOL_TLS = 282;

	/** {@code TLS_TX}: the keys the kernel seals sent records with. */
	public static final int TLS_TX = 1;

	/** {@code TLS_RX}: the keys the kernel opens received records with. */
	public static final int TLS_RX = 2;

	/** {@code TCP_ULP}, from {@code linux/tcp.h}: attaches an upper layer protocol, {@code "tls"}, to a socket. */
	public static final int TCP_ULP = 31;

	/** {@code IPPROTO_TCP}: the level of {@link #TCP_ULP}. */
	public static final int IPPROTO_TCP = 6;

	/** {@code TLS_1_3_VERSION}: {@code TLS_VERSION_NUMBER(TLS_1_3)}. */
	static final int TLS_1_3_VERSION = 0x0304;

	/** The length of {@code rec_seq}. */
	static final int SEQUENCE_LENGTH = 8;

	private CryptoInfo() {
	}

	/**
	 * The length of the structure for a cipher.
	 * @param cipher the cipher
	 * @return the structure's size in bytes: 40 for AES-128-GCM, 56 for the others
	 */
	public static int length(KernelTlsCipher cipher) {
		return 4 + cipher.ivLength() + cipher.keyLength() + cipher.saltLength() + SEQUENCE_LENGTH;
	}

	/**
	 * The structure for one direction of a TLS 1.3 connection.
	 * @param keys that direction's keys
	 * @param sequence the sequence number of the next record the kernel seals (or opens) in that direction
	 * @return the structure, in the byte order of the machine the JVM runs on
	 */
	public static byte[] tls13(TrafficKeys keys, long sequence) {
		return tls13(keys, sequence, ByteOrder.nativeOrder());
	}

	static byte[] tls13(TrafficKeys keys, long sequence, ByteOrder order) {
		KernelTlsCipher cipher = keys.cipher();
		byte[] nonce = keys.iv();
		ByteBuffer info = ByteBuffer.allocate(length(cipher)).order(order);
		info.putShort((short) TLS_1_3_VERSION).putShort((short) cipher.kernelType());
		info.put(nonce, cipher.saltLength(), cipher.ivLength());
		info.put(keys.key());
		info.put(nonce, 0, cipher.saltLength());
		info.order(ByteOrder.BIG_ENDIAN).putLong(sequence);
		return info.array();
	}

}
