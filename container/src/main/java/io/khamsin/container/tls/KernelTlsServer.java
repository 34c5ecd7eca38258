package io.khamsin.container.tls;

import java.io.IOException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Vector;

import org.bouncycastle.tls.AbstractTlsServer;
import org.bouncycastle.tls.AlertDescription;
import org.bouncycastle.tls.Certificate;
import org.bouncycastle.tls.CertificateEntry;
import org.bouncycastle.tls.CipherSuite;
import org.bouncycastle.tls.HashAlgorithm;
import org.bouncycastle.tls.ProtocolName;
import org.bouncycastle.tls.ProtocolVersion;
import org.bouncycastle.tls.SecurityParameters;
import org.bouncycastle.tls.SignatureAlgorithm;
import org.bouncycastle.tls.SignatureAndHashAlgorithm;
import org.bouncycastle.tls.TlsCredentials;
import org.bouncycastle.tls.TlsFatalAlert;
import org.bouncycastle.tls.TlsUtils;
import org.bouncycastle.tls.crypto.TlsCertificate;
import org.bouncycastle.tls.crypto.TlsCryptoParameters;
import org.bouncycastle.tls.crypto.TlsSecret;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaDefaultTlsCredentialedSigner;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCrypto;

/**
 * The server side of one connection whose handshake Bouncy Castle runs, so that its traffic secrets can be handed
 * to the kernel afterwards: TLS 1.3 and 1.2 with AEAD suites only, one identity's key and certificate chain (the
 * SNI stage has chosen it already), and ALPN from khamsin's offer. Bouncy Castle sends TLS 1.3 no session ticket,
 * so such a connection never resumes; that is the price of knowing exactly what has been sealed.
 */
final class KernelTlsServer extends AbstractTlsServer {

	private static final int[] TLS13_SUITES = { CipherSuite.TLS_AES_128_GCM_SHA256, CipherSuite.TLS_AES_256_GCM_SHA384,
			CipherSuite.TLS_CHACHA20_POLY1305_SHA256 };

	private static final int[] ECDSA_SUITES = { CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
			CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 };

	private static final int[] RSA_SUITES = { CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			CipherSuite.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 };

	private final JcaTlsCrypto crypto;

	private final PrivateKey key;

	private final List<X509Certificate> chain;

	private final List<String> applicationProtocols;

	private final boolean tls12;

	private boolean complete;

	/**
	 * @param crypto the crypto Bouncy Castle uses (the JDK's, through JCA)
	 * @param key the identity's private key: RSA or EC on P-256 or P-384
	 * @param chain its certificate chain, leaf first
	 * @param applicationProtocols the ALPN names offered, most preferred first; empty for no ALPN
	 * @param tls12 whether TLS 1.2 is offered beside TLS 1.3 (such a connection stays in user space)
	 */
	KernelTlsServer(JcaTlsCrypto crypto, PrivateKey key, List<X509Certificate> chain, List<String> applicationProtocols,
			boolean tls12) {
		super(crypto);
		String refusal = keyRefusal(key);
		if (refusal != null) {
			throw new IllegalArgumentException(refusal);
		}
		if (chain.isEmpty()) {
			throw new IllegalArgumentException("the certificate chain is empty");
		}
		this.crypto = crypto;
		this.key = key;
		this.chain = List.copyOf(chain);
		this.applicationProtocols = List.copyOf(applicationProtocols);
		this.tls12 = tls12;
	}

	/**
	 * Why a key cannot sign this handshake, or {@code null} when it can.
	 * @param key the identity's private key
	 * @return the reason, or {@code null}
	 */
	static String keyRefusal(PrivateKey key) {
		if (isRsa(key) || curveHash(key) >= 0) {
			return null;
		}
		return "kernel TLS serves RSA keys and EC keys on P-256 or P-384, not " + key.getAlgorithm()
				+ ((key instanceof ECPrivateKey ec) ? " on a " + ec.getParams().getCurve().getField().getFieldSize()
						+ "-bit curve" : "");
	}

	@Override
	protected ProtocolVersion[] getSupportedVersions() {
		return this.tls12 ? ProtocolVersion.TLSv13.downTo(ProtocolVersion.TLSv12) : ProtocolVersion.TLSv13.only();
	}

	@Override
	protected int[] getSupportedCipherSuites() {
		int[] tls12 = isRsa(this.key) ? RSA_SUITES : ECDSA_SUITES;
		int[] suites = new int[TLS13_SUITES.length + tls12.length];
		System.arraycopy(TLS13_SUITES, 0, suites, 0, TLS13_SUITES.length);
		System.arraycopy(tls12, 0, suites, TLS13_SUITES.length, tls12.length);
		return TlsUtils.getSupportedCipherSuites(getCrypto(), suites);
	}

	@Override
	@SuppressWarnings({ "rawtypes", "unchecked" })
	protected Vector getProtocolNames() {
		if (this.applicationProtocols.isEmpty()) {
			return null;
		}
		Vector names = new Vector();
		for (String name : this.applicationProtocols) {
			names.add(ProtocolName.asUtf8Encoding(name));
		}
		return names;
	}

	@Override
	public TlsCredentials getCredentials() throws IOException {
		SecurityParameters handshake = this.context.getSecurityParametersHandshake();
		boolean tls13 = TlsUtils.isTLSv13(handshake.getNegotiatedVersion());
		SignatureAndHashAlgorithm scheme = scheme(handshake.getClientSigAlgs(), tls13);
		TlsCertificate[] certificates = new TlsCertificate[this.chain.size()];
		for (int i = 0; i < certificates.length; i++) {
			try {
				certificates[i] = this.crypto.createCertificate(this.chain.get(i).getEncoded());
			}
			catch (CertificateEncodingException ex) {
				throw new TlsFatalAlert(AlertDescription.internal_error, "certificate " + i + " of the chain", ex);
			}
		}
		Certificate certificate;
		if (tls13) {
			CertificateEntry[] entries = new CertificateEntry[certificates.length];
			for (int i = 0; i < entries.length; i++) {
				entries[i] = new CertificateEntry(certificates[i], new Hashtable<>());
			}
			certificate = new Certificate(TlsUtils.EMPTY_BYTES, entries);
		}
		else {
			certificate = new Certificate(certificates);
		}
		return new JcaDefaultTlsCredentialedSigner(new TlsCryptoParameters(this.context), this.crypto, this.key,
				certificate, scheme);
	}

	/** The signature scheme of the key that the client accepts (RFC 8446 section 4.2.3). */
	private SignatureAndHashAlgorithm scheme(Vector<?> offered, boolean tls13) throws IOException {
		List<SignatureAndHashAlgorithm> candidates = new ArrayList<>();
		if (isRsa(this.key)) {
			candidates.add(SignatureAndHashAlgorithm.rsa_pss_rsae_sha256);
			candidates.add(SignatureAndHashAlgorithm.rsa_pss_rsae_sha384);
			if (!tls13) {
				candidates.add(SignatureAndHashAlgorithm.getInstance(HashAlgorithm.sha256, SignatureAlgorithm.rsa));
			}
		}
		else {
			candidates.add(SignatureAndHashAlgorithm.getInstance(curveHash(this.key), SignatureAlgorithm.ecdsa));
		}
		for (SignatureAndHashAlgorithm candidate : candidates) {
			if (offered == null || offered.contains(candidate)) {
				return candidate;
			}
		}
		throw new TlsFatalAlert(AlertDescription.handshake_failure,
				"the client accepts none of the signature schemes of a " + this.key.getAlgorithm() + " key");
	}

	@Override
	public void notifyHandshakeComplete() throws IOException {
		super.notifyHandshakeComplete();
		this.complete = true;
	}

	/** @return whether the handshake has ended, its keys in force */
	boolean isComplete() {
		return this.complete;
	}

	/** @return the connection's parameters once the handshake is complete */
	SecurityParameters parameters() {
		return this.context.getSecurityParametersConnection();
	}

	/**
	 * A copy of a traffic secret's bytes: {@code extract()} on the connection's own secret would destroy it, and
	 * Bouncy Castle still needs the client's to open records after a {@code KeyUpdate}.
	 */
	byte[] copy(TlsSecret secret) {
		return this.crypto.adoptSecret(secret).extract();
	}

	private static boolean isRsa(PrivateKey key) {
		return "RSA".equals(key.getAlgorithm());
	}

	/** The hash of ECDSA on the key's curve, or -1 for a curve kernel TLS connections do not serve. */
	private static short curveHash(PrivateKey key) {
		if (key instanceof ECPrivateKey ec) {
			int bits = ec.getParams().getCurve().getField().getFieldSize();
			return (bits == 256) ? HashAlgorithm.sha256 : (bits == 384) ? HashAlgorithm.sha384 : -1;
		}
		return -1;
	}

}
