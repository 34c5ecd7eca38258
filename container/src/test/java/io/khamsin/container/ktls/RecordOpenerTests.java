package io.khamsin.container.ktls;

import java.util.Arrays;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Opening TLS 1.3 records: the application data records of RFC 8448 section 3 open with the keys derived from
 * their secrets, and only at their own sequence number, which is what finds a connection's sequence.
 */
class RecordOpenerTests {

	private static final HexFormat HEX = HexFormat.of();

	private static final String FIFTY_BYTES = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
			+ "202122232425262728292a2b2c2d2e2f3031";

	// The server's first application data record: number 1, as its NewSessionTicket took number 0.
	private static final String SERVER_RECORD = "17030300432e937e11ef4ac740e538ad36005fc4a46932fc3225d05f82aa1b36e30efaf97d"
			+ "90e6dffc602dcb501a59a8fcc49c4bf2e5f0a21c0047c2abf332540dd032e167c2955d";

	// The client's first application data record: number 0.
	private static final String CLIENT_RECORD = "1703030043a23f7054b62c94d0affafe8228ba55cbefacea42f914aa66bcab3f2b9819a8a5"
			+ "b46b395bd54a9a20441e2b62974e1f5a6292a2977014bd1e3deae63aeebb21694915e4";

	@Test
	void theRfc8448ServerRecordOpensAtSequenceOneOnly() {
		RecordOpener opener = new RecordOpener(KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				HEX.parseHex("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")));
		byte[] record = HEX.parseHex(SERVER_RECORD);
		assertThat(opener.open(record, 0)).isNull();
		assertThat(opener.open(record, 2)).isNull();
		byte[] inner = opener.open(record, 1);
		assertThat(RecordOpener.innerType(inner)).isEqualTo(23);
		assertThat(HEX.formatHex(RecordOpener.content(inner))).isEqualTo(FIFTY_BYTES);
	}

	@Test
	void theRfc8448ClientRecordOpensAtSequenceZero() {
		RecordOpener opener = new RecordOpener(KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				HEX.parseHex("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5")));
		byte[] inner = opener.open(HEX.parseHex(CLIENT_RECORD), 0);
		assertThat(HEX.formatHex(RecordOpener.content(inner))).isEqualTo(FIFTY_BYTES);
		// The server's keys do not open the client's record.
		RecordOpener server = new RecordOpener(KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				HEX.parseHex("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")));
		assertThat(server.open(HEX.parseHex(CLIENT_RECORD), 0)).isNull();
	}

	@Test
	void recordsOfTheOtherCiphersOpenWhereTheyWereSealed() throws Exception {
		for (KernelTlsCipher cipher : new KernelTlsCipher[] { KernelTlsCipher.AES_256_GCM_SHA384,
				KernelTlsCipher.CHACHA20_POLY1305_SHA256 }) {
			byte[] secret = new byte[cipher.hashLength()];
			secret[0] = 42;
			TrafficKeys keys = KeySchedule.trafficKeys(cipher, secret);
			byte[] record = TestRecords.seal(keys, 5, "hello, kernel".getBytes(), 23);
			RecordOpener opener = new RecordOpener(keys);
			assertThat(opener.open(record, 4)).as("%s at another sequence", cipher).isNull();
			assertThat(new String(RecordOpener.content(opener.open(record, 5)))).isEqualTo("hello, kernel");
		}
	}

	@Test
	void anythingButAWholeSealedRecordIsRefused() {
		RecordOpener opener = new RecordOpener(KeySchedule.trafficKeys(KernelTlsCipher.AES_128_GCM_SHA256,
				new byte[32]));
		byte[] record = HEX.parseHex(SERVER_RECORD);
		assertThatIllegalArgumentException().isThrownBy(() -> opener.open(Arrays.copyOf(record, 30), 1));
		record[0] = 22;
		assertThatIllegalArgumentException().isThrownBy(() -> opener.open(record, 1));
	}

	@Test
	void theInnerTypeIsTheLastByteBeforeThePadding() {
		assertThat(RecordOpener.innerType(new byte[] { 'a', 22, 0, 0 })).isEqualTo(22);
		assertThat(RecordOpener.content(new byte[] { 'a', 'b', 23, 0 })).containsExactly('a', 'b');
		assertThat(RecordOpener.innerType(new byte[] { 0, 0 })).isZero();
	}

}
