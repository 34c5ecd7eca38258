package io.khamsin.container.tls;

import java.security.KeyStore;
import java.security.cert.X509Certificate;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

import org.junit.jupiter.api.Test;

import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestCertificates.KeyType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key BoringSSL is given when Netty asks by type: the identity's key of that type when it holds one, else one it
 * can sign with; and which keys BoringSSL cannot sign with at all.
 */
class BoringSslKeyManagerTests {

	private static final TestCertificates certificates = TestCertificates.create();

	@Test
	void aKeyOfTheTypeAskedForIsAlwaysTheOneAnswered() throws Exception {
		X509ExtendedKeyManager manager = manager("rsa", KeyType.RSA, "ec", KeyType.EC);
		assertThat(manager.chooseEngineServerAlias("RSA", null, null)).isEqualTo("rsa");
		assertThat(manager.chooseEngineServerAlias("EC", null, null)).isEqualTo("ec");
	}

	@Test
	void anEd25519KeyAnswersForTheTypesNettyAsksFor() throws Exception {
		X509ExtendedKeyManager manager = manager("ed", KeyType.ED25519);
		assertThat(manager.chooseEngineServerAlias("EC", null, null)).isEqualTo("ed");
		assertThat(manager.chooseEngineServerAlias("RSA", null, null)).isEqualTo("ed");
	}

	@Test
	void anEcKeyAnswersWhenOnlyRsaIsAskedFor() throws Exception {
		assertThat(manager("ec", KeyType.EC).chooseEngineServerAlias("RSA", null, null)).isEqualTo("ec");
	}

	@Test
	void aKeyBoringSslCannotSignWithIsNeverAnswered() throws Exception {
		X509ExtendedKeyManager manager = manager("ed448", KeyType.ED448);
		assertThat(manager.chooseEngineServerAlias("EC", null, null)).isNull();
		assertThat(manager.chooseEngineServerAlias("RSA", null, null)).isNull();
	}

	@Test
	void ed448RsassaPssAndDsaKeysCannotBeSignedWithAndTheReasonNamesThem() {
		assertThat(BoringSslKeyManager.cannotSign(certificates.server(KeyType.ED448, "a").certificate()))
			.isEqualTo("BoringSSL cannot sign with its Ed448 key");
		assertThat(BoringSslKeyManager.cannotSign(certificates.server(KeyType.RSASSA_PSS, "a").certificate()))
			.isEqualTo("BoringSSL cannot sign with its RSASSA-PSS key");
		for (KeyType type : new KeyType[] { KeyType.EC, KeyType.RSA, KeyType.ED25519 }) {
			assertThat(BoringSslKeyManager.cannotSign(certificates.server(type, "a").certificate())).as(type.name())
				.isNull();
		}
	}

	private static X509ExtendedKeyManager manager(Object... aliasesAndTypes) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		store.load(null, null);
		for (int i = 0; i < aliasesAndTypes.length; i += 2) {
			TestCertificates.Issued issued = certificates.server((KeyType) aliasesAndTypes[i + 1], "localhost");
			store.setKeyEntry((String) aliasesAndTypes[i], issued.key(), new char[0],
					issued.chain().toArray(new X509Certificate[0]));
		}
		KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		factory.init(store, new char[0]);
		return (X509ExtendedKeyManager) BoringSslKeyManager.of(factory.getKeyManagers());
	}

}
