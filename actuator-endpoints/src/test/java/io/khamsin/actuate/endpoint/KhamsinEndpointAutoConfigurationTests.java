package io.khamsin.actuate.endpoint;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import io.khamsin.actuate.metrics.KhamsinMeterBinder;
import io.khamsin.actuate.metrics.KhamsinMeterBinderAutoConfiguration;
import io.khamsin.boot.autoconfigure.KhamsinMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinEndpointAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				KhamsinMetricsAutoConfiguration.class, KhamsinEndpointAutoConfiguration.class,
				KhamsinMeterBinderAutoConfiguration.class));

	@Test
	void endpointsApplyWhenExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=khamsin,latency")
			.run((context) -> assertThat(context).hasSingleBean(KhamsinEndpoint.class)
				.hasSingleBean(LatencyEndpoint.class));
	}

	@Test
	void endpointsDoNotApplyWhenNotExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(KhamsinEndpoint.class)
			.doesNotHaveBean(LatencyEndpoint.class));
	}

	@Test
	void endpointsDoNotApplyWithoutActuator() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=*")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinEndpoint.class)
				.doesNotHaveBean(LatencyEndpoint.class));
	}

	@Test
	void metersApplyWithMicrometer() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(KhamsinMeterBinder.class));
	}

	@Test
	void metersDoNotApplyWithoutMicrometer() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinMeterBinder.class));
	}

	@Test
	void nothingAppliesWhenKhamsinIsDisabled() {
		this.runner.withPropertyValues("khamsin.enabled=false", "management.endpoints.web.exposure.include=*")
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinEndpoint.class)
				.doesNotHaveBean(LatencyEndpoint.class)
				.doesNotHaveBean(KhamsinMeterBinder.class));
	}

}
