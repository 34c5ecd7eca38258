package io.khamsin.container.ktls;

import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals TLS 1.3 records as a sender does (RFC 8446 section 5.2): the content, its inner type, the header as
 * additional data, the nonce of the record's sequence number. The tests' stand-in for the kernel's TLS layer.
 */
public final class TestRecords {

	private TestRecords() {
	}

	/**
	 * Seal one record.
	 * @param keys the sending keys
	 * @param sequence the record's sequence number
	 * @param content its content, at most 16,384 bytes
	 * @param type its inner content type, e.g. 23 for application data
	 * @return the whole record, header included
	 */
	public static byte[] seal(TrafficKeys keys, long sequence, byte[] content, int type) throws Exception {
		KernelTlsCipher cipher = keys.cipher();
		byte[] inner = Arrays.copyOf(content, content.length + 1);
		inner[content.length] = (byte) type;
		int length = inner.length + KernelTlsCipher.TAG_LENGTH;
		byte[] header = { RecordOpener.APPLICATION_DATA, 3, 3, (byte) (length >> 8), (byte) length };
		Cipher sealer = Cipher.getInstance(cipher.transformation());
		sealer.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(keys.key(), cipher.keyAlgorithm()),
				cipher.parameters(keys.nonce(sequence)));
		sealer.updateAAD(header);
		byte[] sealed = sealer.doFinal(inner);
		byte[] record = Arrays.copyOf(header, header.length + sealed.length);
		System.arraycopy(sealed, 0, record, header.length, sealed.length);
		return record;
	}

}
