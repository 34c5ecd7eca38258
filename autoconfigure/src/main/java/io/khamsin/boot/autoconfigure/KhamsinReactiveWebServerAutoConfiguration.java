package io.khamsin.boot.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.reactive.ReactiveWebServerConfiguration;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.ReactiveHttpInputMessage;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.forwarded.KhamsinForwardedProperties;
import io.khamsin.boot.tls.KhamsinTlsProperties;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.transport.KhamsinServerCustomizer;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for khamsin as the reactive web server. Ordered before
 * Boot's own reactive servers so that khamsin is chosen when they are on the classpath too (a WebFlux
 * application keeps Reactor Netty for its {@code WebClient}).
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
		"org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
		"org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
@ConditionalOnClass({ ReactiveHttpInputMessage.class, KhamsinServer.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ KhamsinProperties.class, KhamsinAccessLogProperties.class,
		KhamsinTlsProperties.class, KhamsinForwardedProperties.class, KhamsinShutdownProperties.class })
@Import(ReactiveWebServerConfiguration.class)
public final class KhamsinReactiveWebServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ReactiveWebServerFactory.class)
	KhamsinReactiveWebServerFactory khamsinReactiveWebServerFactory(
			ObjectProvider<KhamsinServerCustomizer> serverCustomizers, ObjectProvider<KhamsinMetrics> metrics) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory();
		metrics.ifAvailable(factory::setMetrics);
		factory.getServerCustomizers().addAll(serverCustomizers.orderedStream().toList());
		return factory;
	}

	@Bean
	KhamsinReactiveWebServerFactoryCustomizer khamsinReactiveWebServerFactoryCustomizer(
			ServerProperties serverProperties, KhamsinProperties khamsinProperties) {
		return new KhamsinReactiveWebServerFactoryCustomizer(serverProperties, khamsinProperties);
	}

	@Bean
	KhamsinTlsCustomizer khamsinTlsCustomizer(KhamsinTlsProperties tlsProperties) {
		return new KhamsinTlsCustomizer(tlsProperties);
	}

	@Bean
	KhamsinShutdownCustomizer khamsinShutdownCustomizer(KhamsinShutdownProperties shutdownProperties) {
		return new KhamsinShutdownCustomizer(shutdownProperties);
	}

	@Bean
	KhamsinForwardedHeadersCustomizer khamsinForwardedHeadersCustomizer(ServerProperties serverProperties,
			KhamsinForwardedProperties forwardedProperties, Environment environment) {
		return new KhamsinForwardedHeadersCustomizer(serverProperties, forwardedProperties, environment);
	}

	@Bean
	KhamsinAccessLogCustomizer khamsinAccessLogCustomizer(KhamsinAccessLogProperties accessLogProperties) {
		return new KhamsinAccessLogCustomizer(accessLogProperties);
	}

}
