package io.khamsin.container.tls;

import java.io.IOException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Locale;

import org.bouncycastle.jcajce.util.DefaultJcaJceHelper;
import org.bouncycastle.tls.crypto.TlsStreamSigner;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCrypto;

/**
 * Bouncy Castle's TLS crypto on the JDK's providers (AES-GCM on the JDK's intrinsics), asking them for RSA-PSS by
 * the name they know. For the RSA-PSS signature of a TLS 1.3 handshake Bouncy Castle asks for
 * {@code SHA256WITHRSAANDMGF1}, then {@code SHA256WITHRSASSA-PSS}: names of its own provider, which the JDK's do
 * not have; the JDK signs PSS as {@code RSASSA-PSS} with the same parameters, which Bouncy Castle passes anyway.
 */
final class KernelTlsCrypto extends JcaTlsCrypto {

	KernelTlsCrypto(SecureRandom random) {
		super(new DefaultJcaJceHelper(), random, random);
	}

	@Override
	protected TlsStreamSigner createStreamSigner(String algorithmName, AlgorithmParameterSpec parameter,
			PrivateKey privateKey, boolean needsRandom) throws IOException {
		boolean pss = parameter instanceof PSSParameterSpec
				&& algorithmName.toUpperCase(Locale.ROOT).endsWith("WITHRSAANDMGF1");
		return super.createStreamSigner(pss ? "RSASSA-PSS" : algorithmName, parameter, privateKey, needsRandom);
	}

}
