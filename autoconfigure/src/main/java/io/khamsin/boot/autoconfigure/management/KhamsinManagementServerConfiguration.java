package io.khamsin.boot.autoconfigure.management;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.reactive.ReactiveWebServerConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.khamsin.boot.autoconfigure.KhamsinForwardedHeadersCustomizer;
import io.khamsin.boot.autoconfigure.KhamsinProperties;
import io.khamsin.boot.autoconfigure.KhamsinTlsCustomizer;
import io.khamsin.boot.forwarded.KhamsinForwardedProperties;
import io.khamsin.boot.tls.KhamsinTlsProperties;

/**
 * Configuration of the management server, registered in actuator's child context only. Boot's
 * {@link ReactiveWebServerConfiguration} applies the customizers of that context (among them actuator's, which
 * sets {@code management.server.port}, {@code management.server.address} and {@code management.server.ssl}, which
 * is {@code server.ssl} unless set); khamsin's settings come from {@link KhamsinManagementServerFactoryCustomizer}
 * and {@code khamsin.tls.*}, without the development certificate, which is the application's, and the main
 * server's forwarded headers strategy. The server records
 * into figures of its own, so that {@code /actuator/khamsin}, {@code /actuator/latency} and khamsin's meters keep
 * reporting the main server alone.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ KhamsinProperties.class, KhamsinTlsProperties.class,
		KhamsinForwardedProperties.class })
@Import(ReactiveWebServerConfiguration.class)
final class KhamsinManagementServerConfiguration {

	@Bean
	KhamsinManagementServerFactoryCustomizer khamsinManagementServerFactoryCustomizer(
			ServerProperties serverProperties, KhamsinProperties khamsinProperties) {
		return new KhamsinManagementServerFactoryCustomizer(serverProperties, khamsinProperties);
	}

	@Bean
	KhamsinForwardedHeadersCustomizer khamsinManagementForwardedHeadersCustomizer(ServerProperties serverProperties,
			KhamsinForwardedProperties forwardedProperties, Environment environment) {
		return new KhamsinForwardedHeadersCustomizer(serverProperties, forwardedProperties, environment);
	}

	@Bean
	KhamsinTlsCustomizer khamsinManagementTlsCustomizer(KhamsinTlsProperties tlsProperties) {
		return new KhamsinTlsCustomizer(tlsProperties.withoutSelfSigned());
	}

}
