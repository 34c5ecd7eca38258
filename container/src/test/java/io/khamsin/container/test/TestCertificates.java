package io.khamsin.container.test;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import io.khamsin.container.tls.TlsMaterial;

/**
 * A test certificate authority made in memory, and the server and client certificates it issues, written as PEM
 * files and PKCS#12 key stores when a test needs them on disk (as a user gives them to Boot).
 */
public final class TestCertificates {

	private final KeyPair caKeys;

	private final X509Certificate ca;

	private final X500Name caName;

	private TestCertificates(String name) throws Exception {
		this.caKeys = newKeys();
		X500Name subject = new X500Name("CN=" + name);
		this.caName = subject;
		X509v3CertificateBuilder builder = builder(subject, subject, this.caKeys);
		builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
		builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
		this.ca = sign(builder, this.caKeys.getPrivate());
	}

	/** @return a new authority named {@code khamsin test CA} */
	public static TestCertificates create() {
		return create("khamsin test CA");
	}

	/**
	 * @param name the authority's common name
	 * @return a new authority
	 */
	public static TestCertificates create(String name) {
		try {
			return new TestCertificates(name);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** @return the authority's certificate */
	public X509Certificate ca() {
		return this.ca;
	}

	/**
	 * A server certificate with an ECDSA P-256 key for DNS names and IP addresses; the first is the common name.
	 * @param names the names
	 * @return the issued certificate
	 */
	public Issued server(String... names) {
		return server(KeyType.EC, names);
	}

	/**
	 * A server certificate for DNS names and IP addresses; the first is the common name.
	 * @param keyType the type of the server's key
	 * @param names the names
	 * @return the issued certificate
	 */
	public Issued server(KeyType keyType, String... names) {
		return issue(keyType, List.of(names), KeyPurposeId.id_kp_serverAuth);
	}

	/**
	 * A client certificate.
	 * @param commonName the subject's common name
	 * @return the issued certificate
	 */
	public Issued client(String commonName) {
		return issue(KeyType.EC, List.of(commonName), KeyPurposeId.id_kp_clientAuth);
	}

	private Issued issue(KeyType keyType, List<String> names, KeyPurposeId purpose) {
		try {
			KeyPair keys = keyType.generate();
			X509v3CertificateBuilder builder = builder(this.caName, new X500Name("CN=" + names.get(0)), keys);
			List<GeneralName> alternatives = new ArrayList<>();
			for (String name : names) {
				if (name.matches("[0-9.]+") || name.contains(":")) {
					alternatives.add(new GeneralName(GeneralName.iPAddress,
							new DEROctetString(InetAddress.getByName(name).getAddress())));
				}
				else {
					alternatives.add(new GeneralName(GeneralName.dNSName, name));
				}
			}
			builder.addExtension(Extension.subjectAlternativeName, false,
					new GeneralNames(alternatives.toArray(new GeneralName[0])));
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
			builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
			builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
			return new Issued(keys.getPrivate(), sign(builder, this.caKeys.getPrivate()), this.ca);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** @return trust of this authority only */
	public TrustManagerFactory trust() {
		try {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(null, null);
			store.setCertificateEntry("ca", this.ca);
			TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			factory.init(store);
			return factory;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A client's context that trusts this authority and presents a certificate.
	 * @param client the client's certificate, or {@code null} for none
	 * @return the context
	 */
	public SSLContext clientContext(Issued client) {
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			context.init((client != null) ? client.keyManagers().getKeyManagers() : null,
					trust().getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Write the authority's certificate as PEM.
	 * @param file the file
	 * @return the file
	 */
	public Path writeCaPem(Path file) {
		writePem(file, List.of(this.ca));
		return file;
	}

	private static KeyPair newKeys() throws GeneralSecurityException {
		return KeyType.EC.generate();
	}

	private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
		Instant now = Instant.now();
		return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, new SecureRandom()),
				Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
				keys.getPublic());
	}

	private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key) throws Exception {
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
	}

	public static void writePem(Path file, List<?> objects) {
		try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
				JcaPEMWriter pem = new JcaPEMWriter(writer)) {
			for (Object object : objects) {
				pem.writeObject(object);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The type of a certificate's key, as a user may give it to a server.
	 */
	public enum KeyType {

		/** ECDSA on P-256. */
		EC("EC", "secp256r1"),

		/** RSA, 2048 bits. */
		RSA("RSA", null),

		/** RSA, 4096 bits: a signature costs about seven times a 2048-bit one. */
		RSA_4096("RSA", null),

		/** Ed25519 (RFC 8410). */
		ED25519("Ed25519", null),

		/** Ed448 (RFC 8410). */
		ED448("Ed448", null),

		/** RSA with the RSASSA-PSS key type of RFC 4055, usable for PSS signatures only. */
		RSASSA_PSS("RSASSA-PSS", null);

		private final String algorithm;

		private final String curve;

		KeyType(String algorithm, String curve) {
			this.algorithm = algorithm;
			this.curve = curve;
		}

		KeyPair generate() throws GeneralSecurityException {
			KeyPairGenerator generator = KeyPairGenerator.getInstance(this.algorithm);
			if (this.curve != null) {
				generator.initialize(new ECGenParameterSpec(this.curve));
			}
			else if (this == RSA || this == RSASSA_PSS) {
				generator.initialize(2048);
			}
			else if (this == RSA_4096) {
				generator.initialize(4096);
			}
			return generator.generateKeyPair();
		}

	}

	/**
	 * A certificate, its key and its issuer.
	 *
	 * @param key the private key
	 * @param certificate the certificate
	 * @param issuer the authority's certificate
	 */
	public record Issued(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {

		/** @return the chain, leaf first */
		public List<X509Certificate> chain() {
			return List.of(this.certificate, this.issuer);
		}

		/**
		 * @param description what the material is
		 * @return the key and chain as engine material
		 */
		public TlsMaterial material(String description) {
			return TlsMaterial.of(this.key, chain(), description);
		}

		/** @return the key and chain as a key manager factory */
		public KeyManagerFactory keyManagers() {
			return material("client").keyManagers();
		}

		/**
		 * Write the chain (leaf first) and the PKCS#8 key as PEM files.
		 * @param certificateFile the chain's file
		 * @param keyFile the key's file
		 */
		public void writePem(Path certificateFile, Path keyFile) {
			TestCertificates.writePem(certificateFile, chain());
			try {
				TestCertificates.writePem(keyFile, List.of(new JcaPKCS8Generator(this.key, null)));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		/**
		 * Write a PKCS#12 key store with the key and chain under an alias.
		 * @param file the file
		 * @param alias the alias
		 * @param password the store's and the key's password
		 * @return the file
		 */
		public Path writePkcs12(Path file, String alias, String password) {
			try (OutputStream out = Files.newOutputStream(file)) {
				KeyStore store = KeyStore.getInstance("PKCS12");
				store.load(null, null);
				store.setKeyEntry(alias, this.key, password.toCharArray(), chain().toArray(new Certificate[0]));
				store.store(out, password.toCharArray());
				return file;
			}
			catch (GeneralSecurityException | IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
