package io.khamsin.container.ktls;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The key schedule against published traces: RFC 8448 section 3 (a TLS 1.3 handshake with
 * {@code TLS_AES_128_GCM_SHA256}), RFC 9001 appendix A.5 (the same {@code HKDF-Expand-Label} with a 32-byte
 * ChaCha20 key), and OpenSSL's HKDF for SHA-384, which no RFC trace covers.
 */
class KeyScheduleTests {

	private static final HexFormat HEX = HexFormat.of();

	// RFC 8448, section 3, "Simple 1-RTT Handshake".
	private static final String MASTER_SECRET = "18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919";

	private static final String HASH_TO_SERVER_FINISHED = "9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13";

	private static final String CLIENT_APPLICATION_SECRET = "9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5";

	private static final String SERVER_APPLICATION_SECRET = "a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643";

	private static final String SERVER_HANDSHAKE_SECRET = "b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38";

	private static final String CLIENT_HANDSHAKE_SECRET = "b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21";

	@Test
	void applicationTrafficSecretsDeriveFromTheMasterSecretAndTheTranscript() {
		byte[] master = HEX.parseHex(MASTER_SECRET);
		byte[] transcript = HEX.parseHex(HASH_TO_SERVER_FINISHED);
		KernelTlsCipher cipher = KernelTlsCipher.AES_128_GCM_SHA256;
		assertThat(hex(KeySchedule.deriveSecret(cipher, master, "c ap traffic", transcript)))
			.isEqualTo(CLIENT_APPLICATION_SECRET);
		assertThat(hex(KeySchedule.deriveSecret(cipher, master, "s ap traffic", transcript)))
			.isEqualTo(SERVER_APPLICATION_SECRET);
	}

	@Test
	void trafficKeysOfTheRfc8448Secrets() {
		assertKeys(SERVER_APPLICATION_SECRET, "9f02283b6c9c07efc26bb9f2ac92e356", "cf782b88dd83549aadf1e984");
		assertKeys(CLIENT_APPLICATION_SECRET, "17422dda596ed5d9acd890e3c63f5051", "5b78923dee08579033e523d9");
		assertKeys(SERVER_HANDSHAKE_SECRET, "3fce516009c21727d0f2e4e86ee403bc", "5d313eb2671276ee13000b30");
		assertKeys(CLIENT_HANDSHAKE_SECRET, "dbfaa693d1762c5b666af5d950258d01", "5bd3c71b836e0b76bb73265f");
	}

	@Test
	void expandLabelWithAThirtyTwoByteChaChaKeyAsRfc9001AppendixA5() {
		byte[] secret = HEX.parseHex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
		KernelTlsCipher cipher = KernelTlsCipher.CHACHA20_POLY1305_SHA256;
		assertThat(hex(KeySchedule.expandLabel(cipher, secret, "quic key", new byte[0], 32)))
			.isEqualTo("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8");
		assertThat(hex(KeySchedule.expandLabel(cipher, secret, "quic iv", new byte[0], 12)))
			.isEqualTo("e0459b3474bdd0e44a41c144");
		// The key update of QUIC is TLS's "traffic upd" under another label: a secret of the hash's length.
		assertThat(hex(KeySchedule.expandLabel(cipher, secret, "quic ku", new byte[0], 32)))
			.isEqualTo("1223504755036d556342ee9361d253421a826c9ecdf3c7148684b36b714881f9");
	}

	@Test
	void sha384SuitesExpandOverHmacSha384AsOpenSslDoes() {
		// openssl kdf -keylen L -kdfopt digest:SHA384 -kdfopt mode:EXPAND_ONLY -kdfopt hexkey:<00..2f>
		// -kdfopt hexinfo:<HkdfLabel> HKDF
		byte[] secret = new byte[48];
		for (int i = 0; i < secret.length; i++) {
			secret[i] = (byte) i;
		}
		KernelTlsCipher cipher = KernelTlsCipher.AES_256_GCM_SHA384;
		TrafficKeys keys = KeySchedule.trafficKeys(cipher, secret);
		assertThat(hex(keys.key())).isEqualTo("6877d022f1c61d24ebb7487c16752d9a4798e40431c75b39320e537c90e23225");
		assertThat(hex(keys.iv())).isEqualTo("42822531a0fe88648fc09e9f");
		assertThat(hex(KeySchedule.nextGeneration(cipher, secret))).isEqualTo(
				"401331b63e9d59f202e8f041042d9516f4cd7fa2e2ee14631d3b49fc340d7af37fc2c0c9f252d8036f81ec5b85cbe5db");
	}

	@Test
	void aNonceIsTheIvXoredWithTheBigEndianSequence() {
		TrafficKeys keys = KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				HEX.parseHex(SERVER_APPLICATION_SECRET));
		assertThat(hex(keys.nonce(0))).isEqualTo("cf782b88dd83549aadf1e984");
		assertThat(hex(keys.nonce(1))).isEqualTo("cf782b88dd83549aadf1e985");
		assertThat(hex(keys.nonce(0x0102030405060708L))).isEqualTo("cf782b88dc81579ea8f7ee8c");
	}

	@Test
	void suitesAreKnownByTheirNamesAndTls12SuitesAreNot() {
		assertThat(KernelTlsCipher.ofSuite("TLS_AES_256_GCM_SHA384")).isEqualTo(KernelTlsCipher.AES_256_GCM_SHA384);
		assertThat(KernelTlsCipher.ofSuite("TLS_CHACHA20_POLY1305_SHA256"))
			.isEqualTo(KernelTlsCipher.CHACHA20_POLY1305_SHA256);
		assertThat(KernelTlsCipher.ofSuite("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256")).isNull();
		assertThat(KernelTlsCipher.ofSuite(null)).isNull();
	}

	@Test
	void keysOfTheWrongLengthAreRefusedAndNeverPrinted() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new TrafficKeys(KernelTlsCipher.AES_256_GCM_SHA384, new byte[16], new byte[12]))
			.withMessageContaining("32-byte key");
		TrafficKeys keys = KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				HEX.parseHex(SERVER_APPLICATION_SECRET));
		assertThat(keys.toString()).doesNotContain("9f02").isEqualTo("TrafficKeys[AES_128_GCM_SHA256]");
	}

	private static void assertKeys(String secret, String key, String iv) {
		TrafficKeys keys = KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256, HEX.parseHex(secret));
		assertThat(hex(keys.key())).as("key of %s", secret).isEqualTo(key);
		assertThat(hex(keys.iv())).as("iv of %s", secret).isEqualTo(iv);
	}

	private static String hex(byte[] bytes) {
		return HEX.formatHex(bytes);
	}

}
