package io.khamsin.boot.forwarded;

import java.util.List;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.web.server.autoconfigure.ServerProperties.ForwardHeadersStrategy;

import io.khamsin.container.forwarded.ForwardedConfig;

/**
 * Which proxies khamsin believes when {@code server.forward-headers-strategy=native}
 * ({@code khamsin.forwarded.*}). The default equals the engine's default in {@link ForwardedConfig}.
 *
 * @param trustedProxies Addresses whose Forwarded and X-Forwarded-* headers are applied, as CIDR blocks or single
 * addresses, IPv4 or IPv6. Headers from any other peer are ignored, and along a chain of proxies only the hops behind
 * trusted ones count. By default the loopback, private, link-local and shared ranges, as Tomcat's RemoteIpValve
 * trusts; '0.0.0.0/0,::/0' trusts every peer, as Reactor Netty does.
 */
@ConfigurationProperties("khamsin.forwarded")
public record KhamsinForwardedProperties(@DefaultValue({ "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12",
		"192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "::1/128", "fc00::/7",
		"fe80::/10" }) List<String> trustedProxies) {

	/**
	 * The engine's configuration for a forward headers strategy, decided as Boot's own containers decide it: on when
	 * the strategy is {@code native}, or when none is set and the application runs on a cloud platform that uses
	 * forwarded headers (Kubernetes, Cloud Foundry, Heroku, ...); off for {@code framework} (Spring applies them) and
	 * {@code none}.
	 * @param strategy {@code server.forward-headers-strategy}, or {@code null} when not set
	 * @param platform the active cloud platform, or {@code null}
	 * @return the configuration
	 * @throws IllegalArgumentException if a trusted proxy is not an address or CIDR block, naming the property
	 */
	public ForwardedConfig toForwardedConfig(ForwardHeadersStrategy strategy, CloudPlatform platform) {
		boolean enabled = (strategy != null) ? strategy == ForwardHeadersStrategy.NATIVE
				: platform != null && platform.isUsingForwardHeaders();
		try {
			return new ForwardedConfig(enabled, (this.trustedProxies != null) ? this.trustedProxies : List.of());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid khamsin.forwarded.trusted-proxies: " + ex.getMessage(), ex);
		}
	}

}
