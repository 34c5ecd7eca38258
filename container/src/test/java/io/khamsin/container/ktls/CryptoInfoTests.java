package io.khamsin.container.ktls;

import java.nio.ByteOrder;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code TLS_TX}/{@code TLS_RX} value byte by byte against {@code linux/tls.h}: {@code struct tls_crypto_info}
 * ({@code __u16 version, cipher_type}) then {@code iv}, {@code key}, {@code salt}, {@code rec_seq}, with the sizes
 * of {@code TLS_CIPHER_AES_GCM_128} (51: 8, 16, 4, 8), {@code TLS_CIPHER_AES_GCM_256} (52: 8, 32, 4, 8) and
 * {@code TLS_CIPHER_CHACHA20_POLY1305} (54: 12, 32, 0, 8).
 */
class CryptoInfoTests {

	private static final HexFormat HEX = HexFormat.of();

	// RFC 8448 section 3's server application keys.
	private static final TrafficKeys AES_128 = new TrafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
			HEX.parseHex("9f02283b6c9c07efc26bb9f2ac92e356"), HEX.parseHex("cf782b88dd83549aadf1e984"));

	@Test
	void aes128GcmOnALittleEndianMachine() {
		byte[] info = CryptoInfo.tls13(AES_128, 1, ByteOrder.LITTLE_ENDIAN);
		assertThat(info).hasSize(40).hasSize(CryptoInfo.length(KernelTlsCipher.AES_128_GCM_SHA256));
		assertThat(HEX.formatHex(info)).isEqualTo("0403" + "3300" // version 0x0304, cipher_type 51
				+ "dd83549aadf1e984" // iv: the last 8 bytes of the 12-byte IV
				+ "9f02283b6c9c07efc26bb9f2ac92e356" // key
				+ "cf782b88" // salt: its first 4 bytes
				+ "0000000000000001"); // rec_seq: the next record is number 1
	}

	@Test
	void theHeaderFollowsTheMachinesByteOrderAndTheSequenceStaysBigEndian() {
		byte[] info = CryptoInfo.tls13(AES_128, 0x0102030405060708L, ByteOrder.BIG_ENDIAN);
		assertThat(HEX.formatHex(info, 0, 4)).isEqualTo("03040033");
		assertThat(HEX.formatHex(info, 32, 40)).isEqualTo("0102030405060708");
		assertThat(CryptoInfo.tls13(AES_128, 0)).isEqualTo(CryptoInfo.tls13(AES_128, 0, ByteOrder.nativeOrder()));
	}

	@Test
	void aes256GcmHasAThirtyTwoByteKey() {
		byte[] key = new byte[32];
		key[0] = 1;
		key[31] = 2;
		byte[] iv = HEX.parseHex("a0a1a2a3a4a5a6a7a8a9aaab");
		byte[] info = CryptoInfo.tls13(new TrafficKeys(KernelTlsCipher.AES_256_GCM_SHA384, key, iv), 7,
				ByteOrder.LITTLE_ENDIAN);
		assertThat(info).hasSize(56);
		assertThat(HEX.formatHex(info)).isEqualTo("0403" + "3400" + "a4a5a6a7a8a9aaab" + HEX.formatHex(key)
				+ "a0a1a2a3" + "0000000000000007");
	}

	@Test
	void chacha20Poly1305TakesTheWholeIvAndNoSalt() {
		byte[] key = new byte[32];
		byte[] iv = HEX.parseHex("a0a1a2a3a4a5a6a7a8a9aaab");
		byte[] info = CryptoInfo.tls13(new TrafficKeys(KernelTlsCipher.CHACHA20_POLY1305_SHA256, key, iv), 0,
				ByteOrder.LITTLE_ENDIAN);
		assertThat(info).hasSize(56);
		assertThat(HEX.formatHex(info)).isEqualTo("0403" + "3600" + "a0a1a2a3a4a5a6a7a8a9aaab" + HEX.formatHex(key)
				+ "0000000000000000");
	}

	@Test
	void theSocketOptionNumbersAreTheKernels() {
		assertThat(CryptoInfo.SOL_TLS).isEqualTo(282);
		assertThat(CryptoInfo.TLS_TX).isEqualTo(1);
		assertThat(CryptoInfo.TLS_RX).isEqualTo(2);
		assertThat(CryptoInfo.TCP_ULP).isEqualTo(31);
		assertThat(CryptoInfo.IPPROTO_TCP).isEqualTo(6);
	}

}
