package io.khamsin.container.tls;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.khamsin.container.egress.KernelTlsMode;

/**
 * The immutable TLS configuration of a listener: the default identity, one identity per SNI host name, and how
 * handshakes are made. Every option has its default written next to it in {@link Builder}.
 *
 * @param material the identity served when the client names no host, or one with no identity of its own
 * @param serverNames the identity of each host name a client may name (SNI, RFC 6066 section 3); a name may
 * start with {@code *.} to match one label
 * @param protocols the protocols offered, a subset of TLSv1.3 and TLSv1.2
 * @param ciphers the TLS 1.2 and TLS 1.3 cipher suites offered, in order of preference (IANA names)
 * @param clientAuth whether clients present certificates
 * @param provider which TLS implementation runs
 * @param alpnProtocols the application protocols offered by ALPN (RFC 7301), in order of preference
 * @param sessionCacheSize the most sessions kept for resumption by session id (TLS 1.2)
 * @param sessionTimeout how long a session (and a session ticket) may be resumed
 * @param ticketKeyRotation how often the keys that encrypt session tickets are replaced; tickets under the
 * previous key are still accepted for one more interval
 * @param handshakeTimeout how long a client may take from connecting to completing the handshake
 * @param kernelTls whether TLS 1.3 connections may hand their sending to the kernel (kernel TLS), so that file
 * bodies leave by {@code sendfile}
 */
public record TlsConfig(TlsMaterial material, Map<String, TlsMaterial> serverNames, List<String> protocols,
		List<String> ciphers, TlsClientAuth clientAuth, TlsProvider provider, List<String> alpnProtocols,
		long sessionCacheSize, Duration sessionTimeout, Duration ticketKeyRotation, Duration handshakeTimeout,
		KernelTlsMode kernelTls) {

	/** The protocols khamsin speaks. */
	public static final List<String> SUPPORTED_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

	/**
	 * Suites with forward secrecy and authenticated encryption only: the three of TLS 1.3, then ECDHE with AES-GCM
	 * or ChaCha20-Poly1305 for TLS 1.2 (no CBC, no static RSA key exchange, no SHA-1 MAC).
	 */
	public static final List<String> DEFAULT_CIPHERS = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
			"TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
			"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
			"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
			"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

	/** HTTP/1.1 only, until HTTP/2 adds {@code h2} in front. */
	public static final List<String> DEFAULT_ALPN_PROTOCOLS = List.of("http/1.1");

	/** Default session cache size, as BoringSSL's and the JDK's own. */
	public static final long DEFAULT_SESSION_CACHE_SIZE = 20_480;

	/** Default session lifetime: no longer than one ticket key interval, so a ticket never outlives its key. */
	public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofHours(1);

	/** Default interval between two ticket keys. */
	public static final Duration DEFAULT_TICKET_KEY_ROTATION = Duration.ofHours(1);

	/** Default handshake timeout, as Netty's. */
	public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

	public TlsConfig {
		if (material == null) {
			throw new IllegalArgumentException("material must not be null");
		}
		serverNames = normalize(serverNames);
		protocols = requireProtocols(protocols, "protocols");
		for (TlsMaterial named : serverNames.values()) {
			if (!named.protocols().isEmpty()) {
				requireProtocols(named.protocols(), "protocols of " + named.description());
			}
		}
		if (!material.protocols().isEmpty()) {
			requireProtocols(material.protocols(), "protocols of " + material.description());
		}
		if (ciphers == null || ciphers.isEmpty()) {
			throw new IllegalArgumentException("ciphers must not be empty");
		}
		ciphers = List.copyOf(ciphers);
		if (clientAuth == null) {
			throw new IllegalArgumentException("clientAuth must not be null");
		}
		if (provider == null) {
			throw new IllegalArgumentException("provider must not be null");
		}
		if (alpnProtocols == null || alpnProtocols.isEmpty()) {
			throw new IllegalArgumentException("alpnProtocols must not be empty");
		}
		alpnProtocols = List.copyOf(alpnProtocols);
		if (sessionCacheSize < 0) {
			throw new IllegalArgumentException("sessionCacheSize must be >= 0, was " + sessionCacheSize);
		}
		requirePositive("sessionTimeout", sessionTimeout);
		requirePositive("ticketKeyRotation", ticketKeyRotation);
		requirePositive("handshakeTimeout", handshakeTimeout);
		if (kernelTls == null) {
			throw new IllegalArgumentException("kernelTls must not be null");
		}
		if (sessionTimeout.compareTo(ticketKeyRotation) > 0) {
			throw new IllegalArgumentException("sessionTimeout (" + sessionTimeout + ") must not exceed ticketKeyRotation ("
					+ ticketKeyRotation + "): a ticket would outlive the key that decrypts it");
		}
	}

	private static Map<String, TlsMaterial> normalize(Map<String, TlsMaterial> serverNames) {
		Map<String, TlsMaterial> normalized = new LinkedHashMap<>();
		if (serverNames != null) {
			serverNames.forEach((name, named) -> {
				if (name == null || name.isBlank()) {
					throw new IllegalArgumentException("a server name must not be blank");
				}
				if (named == null) {
					throw new IllegalArgumentException("the material of server name '" + name + "' must not be null");
				}
				normalized.put(name.toLowerCase(Locale.ROOT), named);
			});
		}
		return Map.copyOf(normalized);
	}

	private static List<String> requireProtocols(List<String> protocols, String what) {
		if (protocols == null || protocols.isEmpty()) {
			throw new IllegalArgumentException(what + " must not be empty");
		}
		for (String protocol : protocols) {
			if (!SUPPORTED_PROTOCOLS.contains(protocol)) {
				throw new IllegalArgumentException(what + " holds " + protocol + ": khamsin speaks "
						+ String.join(" and ", SUPPORTED_PROTOCOLS) + " only (RFC 8996 retired TLS 1.0 and 1.1)");
			}
		}
		return List.copyOf(new LinkedHashSet<>(protocols));
	}

	private static void requirePositive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, was " + value);
		}
	}

	/**
	 * A builder whose every option starts at its default.
	 * @param material the default identity
	 * @return the builder
	 */
	public static Builder builder(TlsMaterial material) {
		return new Builder(material);
	}

	/**
	 * A builder that starts from this configuration.
	 * @return the builder
	 */
	public Builder toBuilder() {
		return new Builder(this.material).serverNames(this.serverNames)
			.protocols(this.protocols)
			.ciphers(this.ciphers)
			.clientAuth(this.clientAuth)
			.provider(this.provider)
			.alpnProtocols(this.alpnProtocols)
			.sessionCacheSize(this.sessionCacheSize)
			.sessionTimeout(this.sessionTimeout)
			.ticketKeyRotation(this.ticketKeyRotation)
			.handshakeTimeout(this.handshakeTimeout)
			.kernelTls(this.kernelTls);
	}

	/**
	 * Builds a {@link TlsConfig}; each option's default is the one written here.
	 */
	public static final class Builder {

		private TlsMaterial material;

		private Map<String, TlsMaterial> serverNames = Map.of();

		private List<String> protocols = SUPPORTED_PROTOCOLS;

		private List<String> ciphers = DEFAULT_CIPHERS;

		private TlsClientAuth clientAuth = TlsClientAuth.NONE;

		private TlsProvider provider = TlsProvider.AUTO;

		private List<String> alpnProtocols = DEFAULT_ALPN_PROTOCOLS;

		private long sessionCacheSize = DEFAULT_SESSION_CACHE_SIZE;

		private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;

		private Duration ticketKeyRotation = DEFAULT_TICKET_KEY_ROTATION;

		private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;

		private KernelTlsMode kernelTls = KernelTlsMode.AUTO;

		private Builder(TlsMaterial material) {
			this.material = material;
		}

		public Builder material(TlsMaterial material) {
			this.material = material;
			return this;
		}

		public Builder serverNames(Map<String, TlsMaterial> serverNames) {
			this.serverNames = serverNames;
			return this;
		}

		public Builder serverName(String serverName, TlsMaterial material) {
			Map<String, TlsMaterial> names = new LinkedHashMap<>(this.serverNames);
			names.put(serverName, material);
			this.serverNames = names;
			return this;
		}

		public Builder protocols(List<String> protocols) {
			this.protocols = protocols;
			return this;
		}

		public Builder ciphers(List<String> ciphers) {
			this.ciphers = ciphers;
			return this;
		}

		public Builder clientAuth(TlsClientAuth clientAuth) {
			this.clientAuth = clientAuth;
			return this;
		}

		public Builder provider(TlsProvider provider) {
			this.provider = provider;
			return this;
		}

		public Builder alpnProtocols(List<String> alpnProtocols) {
			this.alpnProtocols = alpnProtocols;
			return this;
		}

		public Builder sessionCacheSize(long sessionCacheSize) {
			this.sessionCacheSize = sessionCacheSize;
			return this;
		}

		public Builder sessionTimeout(Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
			return this;
		}

		public Builder ticketKeyRotation(Duration ticketKeyRotation) {
			this.ticketKeyRotation = ticketKeyRotation;
			return this;
		}

		public Builder handshakeTimeout(Duration handshakeTimeout) {
			this.handshakeTimeout = handshakeTimeout;
			return this;
		}

		public Builder kernelTls(KernelTlsMode kernelTls) {
			this.kernelTls = kernelTls;
			return this;
		}

		public TlsConfig build() {
			return new TlsConfig(this.material, this.serverNames, this.protocols, this.ciphers, this.clientAuth,
					this.provider, this.alpnProtocols, this.sessionCacheSize, this.sessionTimeout,
					this.ticketKeyRotation, this.handshakeTimeout, this.kernelTls);
		}

	}

}
