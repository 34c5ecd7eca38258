package io.khamsin.container.tls;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;

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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A self-signed certificate made at start for development ({@code khamsin.tls.self-signed=true} with no
 * certificate configured): an ECDSA P-256 key and a certificate for {@code localhost}, {@code 127.0.0.1} and
 * {@code ::1} (or the names given), valid for 30 days. Clients do not trust it; the log line says so and gives
 * the SHA-256 fingerprint to pin or compare.
 */
public final class DevelopmentCertificate {

	/** The names a development certificate is for when none are given. */
	public static final List<String> DEFAULT_NAMES = List.of("localhost", "127.0.0.1", "::1");

	private static final Logger logger = LoggerFactory.getLogger(DevelopmentCertificate.class);

	private static final Duration VALIDITY = Duration.ofDays(30);

	private final TlsMaterial material;

	private final X509Certificate certificate;

	private final String fingerprint;

	private DevelopmentCertificate(TlsMaterial material, X509Certificate certificate, String fingerprint) {
		this.material = material;
		this.certificate = certificate;
		this.fingerprint = fingerprint;
	}

	/**
	 * Make a certificate for {@link #DEFAULT_NAMES} and log that it is for development only.
	 * @return the certificate
	 */
	public static DevelopmentCertificate create() {
		return create(DEFAULT_NAMES);
	}

	/**
	 * Make a certificate for host names and addresses and log that it is for development only.
	 * @param names the DNS names and IP addresses, the first one also the subject's common name
	 * @return the certificate
	 */
	public static DevelopmentCertificate create(List<String> names) {
		if (names == null || names.isEmpty()) {
			throw new IllegalArgumentException("names must hold at least one host name or address");
		}
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
			generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
			KeyPair pair = generator.generateKeyPair();
			Instant now = Instant.now();
			X500Name subject = new X500Name("CN=" + names.get(0).replaceAll("[,=+<>#;\"\\\\]", "_")
					+ ", O=khamsin development certificate");
			X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
					new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofHours(1))),
					Date.from(now.plus(VALIDITY)), subject, pair.getPublic());
			builder.addExtension(Extension.subjectAlternativeName, false, alternativeNames(names));
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
			builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
			builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
			X509Certificate certificate = new JcaX509CertificateConverter()
				.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
			String fingerprint = fingerprint(certificate);
			TlsMaterial material = TlsMaterial.of(pair.getPrivate(), List.of(certificate),
					"the self-signed development certificate");
			logger.warn("khamsin made a self-signed certificate for {} (SHA-256 fingerprint {}), valid until {}. "
					+ "It is for development only: clients do not trust it. Configure server.ssl.* or an SSL bundle "
					+ "(spring.ssl.bundle.*) and remove khamsin.tls.self-signed for anything else",
					String.join(", ", names), fingerprint, certificate.getNotAfter().toInstant());
			return new DevelopmentCertificate(material, certificate, fingerprint);
		}
		catch (GeneralSecurityException | OperatorCreationException | java.io.IOException ex) {
			throw new IllegalStateException("khamsin could not make a development certificate: " + ex.getMessage(), ex);
		}
	}

	private static GeneralNames alternativeNames(List<String> names) throws UnknownHostException {
		List<GeneralName> alternatives = new ArrayList<>();
		for (String name : names) {
			if (name.matches("[0-9.]+") || name.contains(":")) {
				alternatives.add(new GeneralName(GeneralName.iPAddress,
						new org.bouncycastle.asn1.DEROctetString(InetAddress.getByName(name).getAddress())));
			}
			else {
				alternatives.add(new GeneralName(GeneralName.dNSName, name));
			}
		}
		return new GeneralNames(alternatives.toArray(new GeneralName[0]));
	}

	/**
	 * The SHA-256 fingerprint of a certificate as {@code openssl x509 -fingerprint -sha256} prints it.
	 * @param certificate the certificate
	 * @return colon-separated upper-case hex
	 */
	public static String fingerprint(X509Certificate certificate) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
			return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** @return the key and certificate, to serve */
	public TlsMaterial material() {
		return this.material;
	}

	/** @return the certificate, for a client to trust in a test */
	public X509Certificate certificate() {
		return this.certificate;
	}

	/** @return the SHA-256 fingerprint, colon-separated upper-case hex */
	public String fingerprint() {
		return this.fingerprint;
	}

}
