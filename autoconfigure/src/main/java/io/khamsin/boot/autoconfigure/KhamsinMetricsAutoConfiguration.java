package io.khamsin.boot.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;

import io.khamsin.container.bridge.RouteObservationHandler;
import io.khamsin.container.bridge.RouteWebFilter;
import io.khamsin.container.metrics.KhamsinMetrics;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of khamsin's figures: the {@link KhamsinMetrics} that the
 * server records into and that meters and endpoints read, and what tags each request with its route: an
 * observation handler where requests are observed, else a web filter.
 */
@AutoConfiguration(before = KhamsinReactiveWebServerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(KhamsinMetrics.class)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KhamsinMetricsProperties.class)
public final class KhamsinMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KhamsinMetrics khamsinMetrics(KhamsinMetricsProperties properties) {
		return KhamsinMetrics.create(properties.toMetricsConfig());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(WebFilter.class)
	@ConditionalOnBooleanProperty(name = "khamsin.metrics.enabled", matchIfMissing = true)
	static final class RouteTaggingConfiguration {

		/**
		 * Where requests are observed (actuator), routes come from the start of each observation: a web filter
		 * would cost every request WebFlux's checkpoint around it.
		 * @return the handler, which Boot registers with the observation registry
		 */
		@Bean
		@ConditionalOnBean(ObservationRegistry.class)
		@ConditionalOnMissingBean
		RouteObservationHandler khamsinRouteObservationHandler() {
			return new RouteObservationHandler();
		}

		@Bean
		@ConditionalOnMissingBean({ ObservationRegistry.class, RouteWebFilter.class })
		RouteWebFilter khamsinRouteWebFilter() {
			return new RouteWebFilter();
		}

	}

}
