package io.khamsin.actuate.endpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import io.khamsin.boot.autoconfigure.KhamsinMetricsAutoConfiguration;
import io.khamsin.container.metrics.KhamsinMetrics;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code khamsin} and {@code latency} actuator
 * endpoints, when the application has actuator and khamsin serves it. Each endpoint is exposed by Boot's usual
 * rules ({@code management.endpoints.web.exposure.include}).
 */
@AutoConfiguration(after = KhamsinMetricsAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class, KhamsinMetrics.class })
@ConditionalOnBean(KhamsinMetrics.class)
public final class KhamsinEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	KhamsinEndpoint khamsinEndpoint(KhamsinMetrics metrics, ApplicationContext context) {
		return new KhamsinEndpoint(metrics, context);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	LatencyEndpoint latencyEndpoint(KhamsinMetrics metrics) {
		return new LatencyEndpoint(metrics);
	}

}
