package io.khamsin.container.tls;

import java.net.Socket;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * The key manager of an identity's BoringSSL context. Netty asks it for a key by the key types of the TLS 1.2 suites
 * configured only (RSA, EC), in TLS 1.3 too, so an Ed25519 key, which BoringSSL signs with in TLS 1.3 (RFC 8446
 * section 4.2.3) and in TLS 1.2's ECDHE_ECDSA suites (RFC 8422 section 5.1.1), was never chosen, nor an EC key when
 * only ECDHE_RSA suites are configured, and every handshake ended in an {@code internal_error} alert. This one
 * answers a request for a type the identity holds no key of with a key of the identity that BoringSSL can sign with
 * (EC, then RSA, then Ed25519); a key of the type asked for is always the one answered, so a native choice is never
 * overridden. BoringSSL then negotiates what that key can sign.
 */
final class BoringSslKeyManager extends X509ExtendedKeyManager {

	/** The key types Netty does not ask for come last, so that one it asks for is answered first. */
	private static final String[] SIGNABLE_TYPES = { "EC", "RSA", "EdDSA", "Ed25519" };

	private static final List<String> CURVES = List.of("secp256r1", "secp384r1", "secp521r1");

	private final X509KeyManager delegate;

	private final String fallbackAlias;

	private BoringSslKeyManager(X509KeyManager delegate, String fallbackAlias) {
		this.delegate = delegate;
		this.fallbackAlias = fallbackAlias;
	}

	/**
	 * The key manager BoringSSL is given for an identity's key managers.
	 * @param managers the identity's key managers
	 * @return the first X.509 key manager, answering with a key BoringSSL can sign with when asked for a type it
	 * holds no key of
	 */
	static KeyManager of(KeyManager[] managers) {
		for (KeyManager manager : managers) {
			if (manager instanceof X509KeyManager x509) {
				String alias = signableAlias(x509);
				return (alias != null) ? new BoringSslKeyManager(x509, alias) : x509;
			}
		}
		throw new IllegalStateException("no X509KeyManager among " + List.of(managers));
	}

	/**
	 * Why BoringSSL cannot sign handshakes with the key of a certificate: it signs with RSA (PKCS#1 and PSS), ECDSA
	 * on P-256, P-384 and P-521, and Ed25519; not with Ed448, RSASSA-PSS (RFC 4055) or DSA keys.
	 * @param certificate the server's certificate
	 * @return the reason, or {@code null} when it can
	 */
	static String cannotSign(X509Certificate certificate) {
		PublicKey key = certificate.getPublicKey();
		if (key instanceof EdECKey edwards) {
			String curve = edwards.getParams().getName();
			return "Ed25519".equalsIgnoreCase(curve) ? null : "BoringSSL cannot sign with its " + curve + " key";
		}
		if (key instanceof ECPublicKey ec) {
			return isNamedCurve(ec.getParams()) ? null
					: "BoringSSL cannot sign with its EC key on a curve other than P-256, P-384 and P-521";
		}
		if ("RSA".equals(key.getAlgorithm())) {
			return null;
		}
		return "BoringSSL cannot sign with its " + key.getAlgorithm() + " key";
	}

	private static boolean isNamedCurve(ECParameterSpec spec) {
		for (String name : CURVES) {
			try {
				AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
				parameters.init(new ECGenParameterSpec(name));
				ECParameterSpec named = parameters.getParameterSpec(ECParameterSpec.class);
				if (named.getCurve().equals(spec.getCurve()) && named.getOrder().equals(spec.getOrder())) {
					return true;
				}
			}
			catch (GeneralSecurityException ex) {
				// A JDK without the curve serves no key on it either.
			}
		}
		return false;
	}

	private static String signableAlias(X509KeyManager manager) {
		for (String type : SIGNABLE_TYPES) {
			String[] aliases = manager.getServerAliases(type, null);
			for (String alias : (aliases != null) ? aliases : new String[0]) {
				X509Certificate[] chain = manager.getCertificateChain(alias);
				if (chain != null && chain.length > 0 && cannotSign(chain[0]) == null) {
					return alias;
				}
			}
		}
		return null;
	}

	@Override
	public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
		String alias = (this.delegate instanceof X509ExtendedKeyManager extended)
				? extended.chooseEngineServerAlias(keyType, issuers, engine)
				: this.delegate.chooseServerAlias(keyType, issuers, null);
		return (alias != null) ? alias : this.fallbackAlias;
	}

	@Override
	public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
		String alias = this.delegate.chooseServerAlias(keyType, issuers, socket);
		return (alias != null) ? alias : this.fallbackAlias;
	}

	@Override
	public String[] getServerAliases(String keyType, Principal[] issuers) {
		return this.delegate.getServerAliases(keyType, issuers);
	}

	@Override
	public String[] getClientAliases(String keyType, Principal[] issuers) {
		return this.delegate.getClientAliases(keyType, issuers);
	}

	@Override
	public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
		return this.delegate.chooseClientAlias(keyTypes, issuers, socket);
	}

	@Override
	public X509Certificate[] getCertificateChain(String alias) {
		return this.delegate.getCertificateChain(alias);
	}

	@Override
	public PrivateKey getPrivateKey(String alias) {
		return this.delegate.getPrivateKey(alias);
	}

}
