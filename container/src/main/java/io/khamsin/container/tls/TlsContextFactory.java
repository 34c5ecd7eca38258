package io.khamsin.container.tls;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.TreeSet;

import javax.net.ssl.SSLException;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;

import io.khamsin.container.metrics.HandshakeFailure;

/**
 * Turns one {@link TlsMaterial} into a Netty server {@link SslContext} with the configuration's protocols,
 * suites, client authentication, session settings and ALPN list, on the implementation that can sign with its key,
 * and proves it with a {@link HandshakeProbe} before it is served.
 */
final class TlsContextFactory {

	private final TlsConfig config;

	private final ResolvedProvider provider;

	TlsContextFactory(TlsConfig config, ResolvedProvider provider) {
		this.config = config;
		this.provider = provider;
	}

	/**
	 * Build and prove one identity's context, on BoringSSL unless it cannot sign with the identity's key (then on
	 * the JDK under {@code auto}; a failure under {@code openssl}).
	 * @param material the identity's material
	 * @return the identity, ready to serve
	 * @throws IllegalStateException when the material cannot serve, with what to do
	 */
	TlsIdentity create(TlsMaterial material) {
		List<X509Certificate> chain = material.certificateChain();
		if (chain.isEmpty()) {
			throw new IllegalStateException("SSL is enabled but " + material.description()
					+ " holds no private key and certificate: configure a key store (server.ssl.key-store or an SSL"
					+ " bundle's keystore) or a PEM certificate and private key");
		}
		String cannotSign = this.provider.openSsl() ? BoringSslKeyManager.cannotSign(chain.get(0)) : null;
		if (cannotSign != null && this.config.provider() == TlsProvider.OPENSSL) {
			throw new IllegalStateException("khamsin cannot serve " + material.description() + " on "
					+ this.provider.name() + " as khamsin.tls.provider=openssl asks: " + cannotSign
					+ ". Use an RSA, ECDSA (P-256, P-384, P-521) or Ed25519 key, or set khamsin.tls.provider=auto (or"
					+ " jdk) to serve this key on the JDK");
		}
		ResolvedProvider provider = (cannotSign != null) ? ResolvedProvider.resolve(TlsProvider.JDK) : this.provider;
		List<String> protocols = material.protocols().isEmpty() ? this.config.protocols() : material.protocols();
		SslContext context = build(material, provider, protocols, clientAuth());
		try {
			// About 0.1 s of CPU at start for the first identity on BoringSSL (the JDK client's first use) and some
			// tens of ms for each further one, measured in fresh JVMs; a failure here would otherwise come at every
			// client's handshake. A client that must present a certificate cannot be made here: the probe proves the
			// server's side on a twin context that asks for none.
			HandshakeProbe.prove((this.config.clientAuth() == TlsClientAuth.NEED)
					? build(material, provider, protocols, ClientAuth.NONE) : context, protocols);
		}
		catch (SSLException | RuntimeException ex) {
			throw new IllegalStateException("khamsin could not complete a test handshake with " + material.description()
					+ " on " + provider.name() + " (" + ex.getMessage() + "): " + advice(ex, provider), ex);
		}
		return new TlsIdentity(material, context, provider.name(), cannotSign, TicketKeys.of(context));
	}

	private SslContext build(TlsMaterial material, ResolvedProvider provider, List<String> protocols,
			ClientAuth clientAuth) {
		boolean defaultCiphers = material.ciphers().isEmpty() && this.config.ciphers() == TlsConfig.DEFAULT_CIPHERS;
		List<String> ciphers = material.ciphers().isEmpty() ? this.config.ciphers() : material.ciphers();
		if (!defaultCiphers && provider.openSsl()) {
			requireKnownToOpenSsl(ciphers, material);
		}
		SslContextBuilder builder = (provider.openSsl())
				? SslContextBuilder.forServer(BoringSslKeyManager.of(material.keyManagers().getKeyManagers()))
				: SslContextBuilder.forServer(material.keyManagers());
		builder.sslProvider(provider.provider())
			.protocols(protocols)
			// The defaults name every strong suite; a JDK or BoringSSL build that lacks one skips it. Suites a
			// user names are taken as they are, so that a misspelt one fails the start.
			.ciphers(ciphers, defaultCiphers ? SupportedCipherSuiteFilter.INSTANCE : IdentityCipherSuiteFilter.INSTANCE)
			.clientAuth(clientAuth)
			.sessionCacheSize(this.config.sessionCacheSize())
			.sessionTimeout(this.config.sessionTimeout().toSeconds())
			.applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
					SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT,
					this.config.alpnProtocols()));
		if (material.trustManagers() != null) {
			builder.trustManager(material.trustManagers());
		}
		try {
			SslContext context = builder.build();
			if (!provider.openSsl()) {
				// The JDK applies suites and protocols to each new engine: make one now, so a bad name fails the start.
				context.newEngine(ByteBufAllocator.DEFAULT).closeOutbound();
			}
			return context;
		}
		catch (SSLException | IllegalArgumentException ex) {
			throw new IllegalStateException("khamsin could not build the TLS context of " + material.description() + " on "
					+ provider.name() + ": " + ex.getMessage(), ex);
		}
	}

	private static String advice(Exception failure, ResolvedProvider provider) {
		if (HandshakeFailures.of(failure) == HandshakeFailure.NO_SHARED_CIPHER) {
			return "the cipher suites of that protocol include none this key can sign for (ECDHE_ECDSA suites for EC"
					+ " and Ed25519 keys, ECDHE_RSA suites for RSA keys): add one, or leave the protocol out";
		}
		return "check that the private key belongs to the certificate and is of a type " + provider.name()
				+ " can sign with";
	}

	/** BoringSSL drops a suite it does not know without a word; the JDK refuses it, and so do we. */
	private void requireKnownToOpenSsl(List<String> ciphers, TlsMaterial material) {
		for (String cipher : ciphers) {
			if (!OpenSsl.isCipherSuiteAvailable(cipher)) {
				throw new IllegalStateException("khamsin could not build the TLS context of " + material.description()
						+ " on " + this.provider.name() + ": it does not offer the cipher suite " + cipher
						+ "; it offers " + String.join(", ", new TreeSet<>(OpenSsl.availableJavaCipherSuites())));
			}
		}
	}

	private ClientAuth clientAuth() {
		return switch (this.config.clientAuth()) {
			case NONE -> ClientAuth.NONE;
			case WANT -> ClientAuth.OPTIONAL;
			case NEED -> ClientAuth.REQUIRE;
		};
	}

}
