package io.khamsin.container.forwarded;

import java.util.List;

/**
 * The immutable configuration of forwarded headers.
 *
 * @param enabled whether forwarded headers are applied ({@code server.forward-headers-strategy=native})
 * @param trustedProxies the addresses whose forwarded headers are believed, as CIDR blocks ({@code 10.0.0.0/8},
 * {@code fc00::/7}) or single addresses; IPv4-mapped IPv6 peers are matched as IPv4
 */
public record ForwardedConfig(boolean enabled, List<String> trustedProxies) {

	/**
	 * Default trusted proxies: loopback, private (RFC 1918, RFC 4193), link-local and shared (RFC 6598) ranges,
	 * as Tomcat's {@code RemoteIpValve} trusts by default.
	 */
	public static final List<String> DEFAULT_TRUSTED_PROXIES = List.of("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12",
			"192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "::1/128", "fc00::/7", "fe80::/10");

	public ForwardedConfig {
		trustedProxies = List.copyOf(trustedProxies);
		for (int i = 0; i < trustedProxies.size(); i++) {
			try {
				AddressBlock.parse(trustedProxies.get(i));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("trustedProxies[" + i + "]: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Forwarded headers ignored, as by default.
	 * @return the configuration
	 */
	public static ForwardedConfig disabled() {
		return new ForwardedConfig(false, DEFAULT_TRUSTED_PROXIES);
	}

	/**
	 * Forwarded headers applied from the given proxies.
	 * @param trustedProxies the trusted proxies
	 * @return the configuration
	 */
	public static ForwardedConfig trusting(List<String> trustedProxies) {
		return new ForwardedConfig(true, trustedProxies);
	}

}
