package io.khamsin.container.tls;

import java.security.Key;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * Whether an update holds what an identity serves already: the same keys and certificate chains, the same trusted
 * issuers of client certificates, the same protocols and suites. File watchers report files written again with the
 * same bytes (a deployment that copies them anew, a secret volume refreshed, a touch); rebuilding then would only
 * throw away the identity's sessions, which resume under its own ticket keys only.
 */
final class UnchangedMaterial {

	private static final String[] KEY_TYPES = { "RSA", "EC", "RSASSA-PSS", "EdDSA", "Ed25519", "Ed448", "DSA" };

	private UnchangedMaterial() {
	}

	static boolean test(TlsMaterial served, TlsMaterial update) {
		return served.protocols().equals(update.protocols()) && served.ciphers().equals(update.ciphers())
				&& entries(served.keyManagers().getKeyManagers()).equals(entries(update.keyManagers().getKeyManagers()))
				&& issuers(served.trustManagers()).equals(issuers(update.trustManagers()));
	}

	/** Each key entry a server may choose: its chain and its key, keys compared by their encoding. */
	private static List<Object> entries(KeyManager[] managers) {
		List<Object> entries = new ArrayList<>();
		for (KeyManager manager : managers) {
			if (manager instanceof X509KeyManager x509) {
				for (String type : KEY_TYPES) {
					String[] aliases = x509.getServerAliases(type, null);
					for (String alias : (aliases != null) ? aliases : new String[0]) {
						X509Certificate[] chain = x509.getCertificateChain(alias);
						entries.add((chain != null) ? List.of(chain) : List.of());
						entries.add(new KeyBytes(x509.getPrivateKey(alias)));
					}
				}
			}
		}
		return entries;
	}

	private static List<X509Certificate> issuers(TrustManagerFactory trust) {
		if (trust == null) {
			return List.of();
		}
		List<X509Certificate> issuers = new ArrayList<>();
		for (TrustManager manager : trust.getTrustManagers()) {
			if (manager instanceof X509TrustManager x509) {
				issuers.addAll(List.of(x509.getAcceptedIssuers()));
			}
		}
		return issuers;
	}

	/** A private key compared by its encoding, or as itself when it has none (a key on a token). */
	private record KeyBytes(Key key) {

		@Override
		public boolean equals(Object other) {
			if (!(other instanceof KeyBytes that)) {
				return false;
			}
			if (this.key == null || that.key == null) {
				return this.key == that.key;
			}
			byte[] mine = this.key.getEncoded();
			byte[] theirs = that.key.getEncoded();
			return (mine != null && theirs != null) ? Arrays.equals(mine, theirs) : this.key.equals(that.key);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode((this.key != null) ? this.key.getAlgorithm() : null);
		}

	}

}
