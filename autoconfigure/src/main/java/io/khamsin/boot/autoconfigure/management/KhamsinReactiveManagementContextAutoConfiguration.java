package io.khamsin.boot.autoconfigure.management;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.autoconfigure.KhamsinReactiveWebServerAutoConfiguration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the management server when khamsin serves the application
 * and {@code management.server.port} differs from {@code server.port}. Actuator then starts the endpoints in a
 * child context with a web server of its own, built by the {@link ManagementContextFactory} declared here: a
 * {@link KhamsinReactiveWebServerFactory} customized by {@link KhamsinManagementServerConfiguration}.
 */
@AutoConfiguration(after = KhamsinReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass({ ManagementContextFactory.class, KhamsinReactiveWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnBean(KhamsinReactiveWebServerFactory.class)
public final class KhamsinReactiveManagementContextAutoConfiguration {

	// Primary: Reactor Netty's auto-configuration declares a factory too whenever it is on the classpath (a
	// WebFlux application keeps it for WebClient), and actuator takes a single one.
	@Bean
	@Primary
	static ManagementContextFactory khamsinManagementContextFactory() {
		return new ManagementContextFactory(WebApplicationType.REACTIVE, ReactiveWebServerFactory.class,
				KhamsinManagementServerConfiguration.class);
	}

}
