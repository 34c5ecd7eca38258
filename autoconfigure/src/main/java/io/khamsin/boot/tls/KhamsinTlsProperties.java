package io.khamsin.boot.tls;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;

/**
 * khamsin's own TLS settings ({@code khamsin.tls.*}); the certificates, protocols, suites and client
 * authentication come from Boot's {@code server.ssl.*} and SSL bundles. Each default equals the engine's in
 * {@link TlsConfig}.
 *
 * @param provider Which TLS implementation runs. 'auto' takes BoringSSL (netty-tcnative) when it loads on this
 * platform, else the JDK's, and logs why; a certificate whose key BoringSSL cannot sign with (Ed448, RSASSA-PSS) is
 * served by the JDK's. 'openssl' fails the start when BoringSSL does not load or cannot sign with a key; 'jdk' takes
 * the JDK's.
 * @param selfSigned Whether to make a self-signed certificate at start when no certificate is configured, for
 * development only: clients do not trust it. Its SHA-256 fingerprint is logged.
 * @param sessionCacheSize Most TLS sessions kept for resumption by session id.
 * @param sessionTimeout How long a TLS session or session ticket may be resumed. At most the ticket key rotation.
 * @param ticketKeyRotation How often the keys that encrypt session tickets are replaced. Tickets under the previous
 * key are still accepted for one more interval.
 * @param handshakeTimeout How long a client may take from connecting to completing its TLS handshake.
 */
@ConfigurationProperties("khamsin.tls")
public record KhamsinTlsProperties(@DefaultValue("auto") TlsProvider provider,
		@DefaultValue("false") boolean selfSigned, @DefaultValue("20480") long sessionCacheSize,
		@DefaultValue("1h") Duration sessionTimeout, @DefaultValue("1h") Duration ticketKeyRotation,
		@DefaultValue("10s") Duration handshakeTimeout) {

	/** @return the settings with every default, as when no {@code khamsin.tls.*} property is set */
	public static KhamsinTlsProperties defaults() {
		return new KhamsinTlsProperties(TlsProvider.AUTO, false, TlsConfig.DEFAULT_SESSION_CACHE_SIZE,
				TlsConfig.DEFAULT_SESSION_TIMEOUT, TlsConfig.DEFAULT_TICKET_KEY_ROTATION,
				TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT);
	}

	/**
	 * These settings without a development certificate, for a server that serves TLS only when SSL is configured
	 * for it (the management server).
	 * @return the settings
	 */
	public KhamsinTlsProperties withoutSelfSigned() {
		return new KhamsinTlsProperties(this.provider, false, this.sessionCacheSize, this.sessionTimeout,
				this.ticketKeyRotation, this.handshakeTimeout);
	}

	/**
	 * Apply these settings to an engine configuration.
	 * @param builder the builder
	 * @return the builder
	 */
	TlsConfig.Builder applyTo(TlsConfig.Builder builder) {
		return builder.provider(this.provider)
			.sessionCacheSize(this.sessionCacheSize)
			.sessionTimeout(this.sessionTimeout)
			.ticketKeyRotation(this.ticketKeyRotation)
			.handshakeTimeout(this.handshakeTimeout);
	}

}
