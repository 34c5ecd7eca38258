package io.khamsin.container.tls;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * What one TLS identity is made of: the server's key and certificate chain as a {@link KeyManagerFactory}, the
 * trusted issuers of client certificates as a {@link TrustManagerFactory} ({@code null}: the JDK's default
 * trust), and the protocols and cipher suites of this identity (empty: those of the {@link TlsConfig}).
 * Immutable; the same factories can be handed to QUIC and to another TLS engine (see the package notes).
 *
 * @param keyManagers the server's key and certificate chain
 * @param trustManagers the trust of client certificates, or {@code null} for the JDK's default
 * @param protocols the protocols of this identity, or empty for the configuration's
 * @param ciphers the cipher suites of this identity, or empty for the configuration's
 * @param description what the material is, for log lines and errors (e.g. {@code "SSL bundle 'web'"})
 */
public record TlsMaterial(KeyManagerFactory keyManagers, TrustManagerFactory trustManagers, List<String> protocols,
		List<String> ciphers, String description) {

	private static final String ALIAS = "khamsin";

	private static final String[] KEY_TYPES = { "RSA", "EC", "RSASSA-PSS", "EdDSA", "Ed25519", "Ed448", "DSA" };

	public TlsMaterial {
		if (keyManagers == null) {
			throw new IllegalArgumentException("keyManagers must not be null");
		}
		protocols = (protocols != null) ? List.copyOf(protocols) : List.of();
		ciphers = (ciphers != null) ? List.copyOf(ciphers) : List.of();
		description = (description != null) ? description : "TLS material";
	}

	/**
	 * Material from a key manager factory that is already initialized.
	 * @param keyManagers the key and certificate chain
	 * @param description what the material is
	 * @return the material
	 */
	public static TlsMaterial of(KeyManagerFactory keyManagers, String description) {
		return new TlsMaterial(keyManagers, null, List.of(), List.of(), description);
	}

	/**
	 * Material from a key store that holds one private key entry and its chain.
	 * @param keyStore the key store
	 * @param keyPassword the password of the key entry
	 * @param description what the material is
	 * @return the material
	 */
	public static TlsMaterial of(KeyStore keyStore, char[] keyPassword, String description) {
		try {
			KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			factory.init(keyStore, keyPassword);
			return of(factory, description);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("The key of " + description + " could not be read: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Material from a private key and its certificate chain, leaf first.
	 * @param key the private key
	 * @param chain the certificate chain, leaf first
	 * @param description what the material is
	 * @return the material
	 */
	public static TlsMaterial of(PrivateKey key, List<X509Certificate> chain, String description) {
		if (key == null) {
			throw new IllegalArgumentException("key must not be null");
		}
		if (chain == null || chain.isEmpty()) {
			throw new IllegalArgumentException("chain must hold at least the server's certificate");
		}
		try {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(null, null);
			char[] password = new char[0];
			store.setKeyEntry(ALIAS, key, password, chain.toArray(new Certificate[0]));
			return of(store, password, description);
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException("The key of " + description + " could not be stored: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Material from PEM files: a certificate chain (leaf first) and an unencrypted private key (PKCS#8, PKCS#1 or
	 * SEC 1), as a plain {@code main} would give them.
	 * @param certificateChain the PEM file of the chain
	 * @param privateKey the PEM file of the key
	 * @return the material, described by the certificate file's name
	 */
	public static TlsMaterial fromPem(Path certificateChain, Path privateKey) {
		String description = "certificate " + certificateChain;
		try {
			List<X509Certificate> chain = readChain(certificateChain);
			return of(readKey(privateKey), chain, description);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("The PEM files of " + description + " could not be read: " + ex.getMessage(),
					ex);
		}
	}

	private static List<X509Certificate> readChain(Path file) throws IOException, GeneralSecurityException {
		List<X509Certificate> chain = new ArrayList<>();
		JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
				PEMParser parser = new PEMParser(reader)) {
			for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
				if (item instanceof X509CertificateHolder holder) {
					chain.add(converter.getCertificate(holder));
				}
			}
		}
		if (chain.isEmpty()) {
			throw new IOException(file + " holds no CERTIFICATE block");
		}
		return chain;
	}

	private static PrivateKey readKey(Path file) throws IOException {
		JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
				PEMParser parser = new PEMParser(reader)) {
			for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
				if (item instanceof PrivateKeyInfo info) {
					return converter.getPrivateKey(info);
				}
				if (item instanceof PEMKeyPair pair) {
					return converter.getKeyPair(pair).getPrivate();
				}
			}
		}
		throw new IOException(file + " holds no unencrypted PRIVATE KEY block");
	}

	/**
	 * The same material with the given trust of client certificates.
	 * @param trust the trust, or {@code null} for the JDK's default
	 * @return new material
	 */
	public TlsMaterial withTrust(TrustManagerFactory trust) {
		return new TlsMaterial(this.keyManagers, trust, this.protocols, this.ciphers, this.description);
	}

	/**
	 * The same material with its own protocols and cipher suites.
	 * @param protocols the protocols, or empty for the configuration's
	 * @param ciphers the cipher suites, or empty for the configuration's
	 * @return new material
	 */
	public TlsMaterial withOptions(List<String> protocols, List<String> ciphers) {
		return new TlsMaterial(this.keyManagers, this.trustManagers, protocols, ciphers, this.description);
	}

	/**
	 * The certificate chain the server would present, the first key entry's.
	 * @return the chain, leaf first, or an empty list when the key managers hold no key
	 */
	public List<X509Certificate> certificateChain() {
		KeyEntry entry = firstKeyEntry();
		return (entry != null) ? List.of(entry.manager().getCertificateChain(entry.alias())) : List.of();
	}

	/**
	 * The private key of the chain {@link #certificateChain()} gives.
	 * @return the key, or {@code null} when the key managers hold no key
	 */
	public PrivateKey privateKey() {
		KeyEntry entry = firstKeyEntry();
		return (entry != null) ? entry.manager().getPrivateKey(entry.alias()) : null;
	}

	private KeyEntry firstKeyEntry() {
		for (KeyManager manager : this.keyManagers.getKeyManagers()) {
			if (manager instanceof X509KeyManager x509) {
				for (String type : KEY_TYPES) {
					String[] aliases = x509.getServerAliases(type, null);
					if (aliases != null && aliases.length > 0) {
						X509Certificate[] chain = x509.getCertificateChain(aliases[0]);
						if (chain != null && chain.length > 0) {
							return new KeyEntry(x509, aliases[0]);
						}
					}
				}
			}
		}
		return null;
	}

	private record KeyEntry(X509KeyManager manager, String alias) {

	}

}
