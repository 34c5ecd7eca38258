package io.khamsin.container.ktls;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Locale;

import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The TLS 1.3 cipher suites whose records the kernel's {@code tls} module can seal, with the sizes its
 * {@code tls12_crypto_info_*} structure gives them ({@code linux/tls.h}) and the hash of their key schedule.
 * TLS 1.3's per-record nonce is 12 bytes for all three; the kernel splits it into a salt (the first 4 bytes) and an
 * IV (the other 8) for AES-GCM, and takes all 12 as the IV for ChaCha20-Poly1305.
 */
public enum KernelTlsCipher {

	/** {@code TLS_AES_128_GCM_SHA256}: the kernel's {@code TLS_CIPHER_AES_GCM_128}. */
	AES_128_GCM_SHA256("TLS_AES_128_GCM_SHA256", 0x1301, 51, 16, 4, "HmacSHA256", "AES/GCM/NoPadding", "AES"),

	/** {@code TLS_AES_256_GCM_SHA384}: the kernel's {@code TLS_CIPHER_AES_GCM_256}. */
	AES_256_GCM_SHA384("TLS_AES_256_GCM_SHA384", 0x1302, 52, 32, 4, "HmacSHA384", "AES/GCM/NoPadding", "AES"),

	/** {@code TLS_CHACHA20_POLY1305_SHA256}: the kernel's {@code TLS_CIPHER_CHACHA20_POLY1305}. */
	CHACHA20_POLY1305_SHA256("TLS_CHACHA20_POLY1305_SHA256", 0x1303, 54, 32, 0, "HmacSHA256",
			"ChaCha20-Poly1305", "ChaCha20");

	/** The length of a TLS 1.3 record nonce, and so of the IV the key schedule derives (RFC 8446 section 5.3). */
	public static final int NONCE_LENGTH = 12;

	/** The length of the authentication tag every one of these ciphers appends to a record. */
	public static final int TAG_LENGTH = 16;

	private final String suite;

	private final int code;

	private final int kernelType;

	private final int keyLength;

	private final int saltLength;

	private final String hmac;

	private final String transformation;

	private final String keyAlgorithm;

	KernelTlsCipher(String suite, int code, int kernelType, int keyLength, int saltLength, String hmac,
			String transformation, String keyAlgorithm) {
		this.suite = suite;
		this.code = code;
		this.kernelType = kernelType;
		this.keyLength = keyLength;
		this.saltLength = saltLength;
		this.hmac = hmac;
		this.transformation = transformation;
		this.keyAlgorithm = keyAlgorithm;
	}

	/**
	 * The cipher of a negotiated suite.
	 * @param suite the suite's IANA name, as {@code SSLSession.getCipherSuite()} gives it
	 * @return its cipher, or {@code null} if the kernel cannot seal its records (every TLS 1.2 suite, and
	 * {@code TLS_AES_128_CCM_SHA256}, which no TLS stack khamsin runs offers)
	 */
	public static KernelTlsCipher ofSuite(String suite) {
		if (suite == null) {
			return null;
		}
		String name = suite.toUpperCase(Locale.ROOT);
		for (KernelTlsCipher cipher : values()) {
			if (cipher.suite.equals(name)) {
				return cipher;
			}
		}
		return null;
	}

	/**
	 * The cipher of a negotiated suite.
	 * @param code the suite's number in the TLS registry, e.g. {@code 0x1301}
	 * @return its cipher, or {@code null} if the kernel cannot seal its records
	 */
	public static KernelTlsCipher ofCode(int code) {
		for (KernelTlsCipher cipher : values()) {
			if (cipher.code == code) {
				return cipher;
			}
		}
		return null;
	}

	/** @return the suite's IANA name, e.g. {@code TLS_AES_128_GCM_SHA256} */
	public String suite() {
		return this.suite;
	}

	/** @return the kernel's {@code TLS_CIPHER_*} number */
	public int kernelType() {
		return this.kernelType;
	}

	/** @return the key's length in bytes */
	public int keyLength() {
		return this.keyLength;
	}

	/** @return how many leading bytes of the nonce the kernel takes as the salt (0 for ChaCha20-Poly1305) */
	public int saltLength() {
		return this.saltLength;
	}

	/** @return how many bytes of the nonce the kernel takes as the IV: the rest after the salt */
	public int ivLength() {
		return NONCE_LENGTH - this.saltLength;
	}

	/** @return the JCA name of the HMAC of the suite's hash, e.g. {@code HmacSHA256} */
	public String hmac() {
		return this.hmac;
	}

	/** @return the length in bytes of the suite's hash, and so of its traffic secrets */
	public int hashLength() {
		return "HmacSHA384".equals(this.hmac) ? 48 : 32;
	}

	/** @return the JCA transformation that seals and opens its records */
	public String transformation() {
		return this.transformation;
	}

	/**
	 * The JCA parameters that seal or open one record.
	 * @param nonce the record's nonce ({@link TrafficKeys#nonce})
	 * @return a 128-bit-tag GCM specification for AES, the nonce alone for ChaCha20-Poly1305
	 */
	public AlgorithmParameterSpec parameters(byte[] nonce) {
		return (this == CHACHA20_POLY1305_SHA256) ? new IvParameterSpec(nonce)
				: new GCMParameterSpec(TAG_LENGTH * 8, nonce);
	}

	/** @return the JCA algorithm of its key */
	public String keyAlgorithm() {
		return this.keyAlgorithm;
	}

}
