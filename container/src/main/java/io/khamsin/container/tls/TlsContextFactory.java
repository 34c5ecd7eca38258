package io.khamsin.container.tls;

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

/**
 * Turns one {@link TlsMaterial} into a Netty server {@link SslContext} with the configuration's protocols,
 * suites, client authentication, session settings and ALPN list.
 */
final class TlsContextFactory {

	private final TlsConfig config;

	private final ResolvedProvider provider;

	TlsContextFactory(TlsConfig config, ResolvedProvider provider) {
		this.config = config;
		this.provider = provider;
	}

	SslContext create(TlsMaterial material) {
		if (material.certificateChain().isEmpty()) {
			throw new IllegalStateException("SSL is enabled but " + material.description()
					+ " holds no private key and certificate: configure a key store (server.ssl.key-store or an SSL"
					+ " bundle's keystore) or a PEM certificate and private key");
		}
		List<String> protocols = material.protocols().isEmpty() ? this.config.protocols() : material.protocols();
		boolean defaultCiphers = material.ciphers().isEmpty() && this.config.ciphers() == TlsConfig.DEFAULT_CIPHERS;
		List<String> ciphers = material.ciphers().isEmpty() ? this.config.ciphers() : material.ciphers();
		if (!defaultCiphers && this.provider.openSsl()) {
			requireKnownToOpenSsl(ciphers, material);
		}
		SslContextBuilder builder = SslContextBuilder.forServer(material.keyManagers())
			.sslProvider(this.provider.provider())
			.protocols(protocols)
			// The defaults name every strong suite; a JDK or BoringSSL build that lacks one skips it. Suites a
			// user names are taken as they are, so that a misspelt one fails the start.
			.ciphers(ciphers, defaultCiphers ? SupportedCipherSuiteFilter.INSTANCE : IdentityCipherSuiteFilter.INSTANCE)
			.clientAuth(clientAuth())
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
			if (!this.provider.openSsl()) {
				// The JDK applies suites and protocols to each new engine: make one now, so a bad name fails the start.
				context.newEngine(ByteBufAllocator.DEFAULT).closeOutbound();
			}
			return context;
		}
		catch (SSLException | IllegalArgumentException ex) {
			throw new IllegalStateException("khamsin could not build the TLS context of " + material.description() + " on "
					+ this.provider.name() + ": " + ex.getMessage(), ex);
		}
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
