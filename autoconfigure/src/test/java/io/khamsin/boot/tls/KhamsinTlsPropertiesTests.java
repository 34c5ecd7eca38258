package io.khamsin.boot.tls;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code khamsin.tls.*} as Boot binds it: each default is the engine's, and each setting reaches the engine's
 * configuration.
 */
class KhamsinTlsPropertiesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(TlsPropertiesConfiguration.class);

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(KhamsinTlsProperties.class)
	static class TlsPropertiesConfiguration {

	}

	@Test
	void eachDefaultIsTheEnginesDefault() {
		this.runner.run((context) -> {
			KhamsinTlsProperties properties = context.getBean(KhamsinTlsProperties.class);
			assertThat(properties).isEqualTo(KhamsinTlsProperties.defaults());
			TlsConfig engine = TlsConfig.builder(BootTlsConfig.selfSigned(null, properties).material()).build();
			TlsConfig bound = BootTlsConfig.selfSigned(null, properties);
			assertThat(bound.provider()).isEqualTo(engine.provider());
			assertThat(bound.sessionCacheSize()).isEqualTo(engine.sessionCacheSize());
			assertThat(bound.sessionTimeout()).isEqualTo(engine.sessionTimeout());
			assertThat(bound.ticketKeyRotation()).isEqualTo(engine.ticketKeyRotation());
			assertThat(bound.handshakeTimeout()).isEqualTo(engine.handshakeTimeout());
			assertThat(properties.selfSigned()).isFalse();
		});
	}

	@Test
	void eachSettingReachesTheEngine() {
		this.runner
			.withPropertyValues("khamsin.tls.provider=jdk", "khamsin.tls.self-signed=true",
					"khamsin.tls.session-cache-size=500", "khamsin.tls.session-timeout=10m",
					"khamsin.tls.ticket-key-rotation=30m", "khamsin.tls.handshake-timeout=5s")
			.run((context) -> {
				KhamsinTlsProperties properties = context.getBean(KhamsinTlsProperties.class);
				assertThat(properties.selfSigned()).isTrue();
				TlsConfig config = BootTlsConfig.of(null, () -> null, java.util.Map::of, properties);
				assertThat(config.provider()).isEqualTo(TlsProvider.JDK);
				assertThat(config.sessionCacheSize()).isEqualTo(500);
				assertThat(config.sessionTimeout()).isEqualTo(Duration.ofMinutes(10));
				assertThat(config.ticketKeyRotation()).isEqualTo(Duration.ofMinutes(30));
				assertThat(config.handshakeTimeout()).isEqualTo(Duration.ofSeconds(5));
			});
	}

	@Test
	void aSessionLongerThanTheTicketKeyRotationFailsTheStart() {
		this.runner
			.withPropertyValues("khamsin.tls.self-signed=true", "khamsin.tls.session-timeout=2h",
					"khamsin.tls.ticket-key-rotation=1h")
			.run((context) -> org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> BootTlsConfig.of(null, () -> null, java.util.Map::of,
						context.getBean(KhamsinTlsProperties.class)))
				.withMessageContaining("a ticket would outlive the key that decrypts it"));
	}

}
