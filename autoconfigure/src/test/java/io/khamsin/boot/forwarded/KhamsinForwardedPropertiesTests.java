package io.khamsin.boot.forwarded;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties.ForwardHeadersStrategy;

import io.khamsin.container.forwarded.ForwardedConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KhamsinForwardedPropertiesTests {

	@Test
	void theDefaultTrustedProxiesAreTheEnginesDefault() {
		assertThat(bind(Map.of()).trustedProxies()).isEqualTo(ForwardedConfig.DEFAULT_TRUSTED_PROXIES);
		assertThat(bind(Map.of()).toForwardedConfig(null, null)).isEqualTo(ForwardedConfig.disabled());
	}

	@Test
	void nativeSwitchesForwardedHeadersOnAndFrameworkAndNoneLeaveThemToSpringOrNoOne() {
		KhamsinForwardedProperties properties = bind(Map.of());
		assertThat(properties.toForwardedConfig(strategy("native"), null).enabled()).isTrue();
		assertThat(properties.toForwardedConfig(strategy("framework"), CloudPlatform.KUBERNETES).enabled()).isFalse();
		assertThat(properties.toForwardedConfig(strategy("none"), CloudPlatform.KUBERNETES).enabled()).isFalse();
	}

	@Test
	void withNoStrategyACloudPlatformThatUsesForwardedHeadersSwitchesThemOnAsForBootsContainers() {
		KhamsinForwardedProperties properties = bind(Map.of());
		assertThat(strategy(null)).isNull();
		assertThat(properties.toForwardedConfig(null, CloudPlatform.KUBERNETES).enabled()).isTrue();
		assertThat(properties.toForwardedConfig(null, CloudPlatform.CLOUD_FOUNDRY).enabled()).isTrue();
		assertThat(properties.toForwardedConfig(null, CloudPlatform.NONE).enabled()).isFalse();
		assertThat(properties.toForwardedConfig(null, null).enabled()).isFalse();
	}

	@Test
	void trustedProxiesAreBoundAsAList() {
		KhamsinForwardedProperties properties = bind(
				Map.of("khamsin.forwarded.trusted-proxies", "192.0.2.10, 2001:db8::/32"));
		assertThat(properties.toForwardedConfig(ForwardHeadersStrategy.NATIVE, null))
			.isEqualTo(ForwardedConfig.trusting(List.of("192.0.2.10", "2001:db8::/32")));
	}

	@Test
	void aBadTrustedProxyIsRefusedNamingTheProperty() {
		KhamsinForwardedProperties properties = bind(Map.of("khamsin.forwarded.trusted-proxies", "10.0.0.0/8,lb.local"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> properties.toForwardedConfig(ForwardHeadersStrategy.NATIVE, null))
			.withMessageContaining("khamsin.forwarded.trusted-proxies")
			.withMessageContaining("'lb.local'");
	}

	private static KhamsinForwardedProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("khamsin.forwarded",
				KhamsinForwardedProperties.class);
	}

	private static ForwardHeadersStrategy strategy(String value) {
		Map<String, String> properties = (value != null) ? Map.of("server.forward-headers-strategy", value) : Map.of();
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("server", ServerProperties.class)
			.getForwardHeadersStrategy();
	}

}
