package io.khamsin.boot.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.bridge.RouteObservationHandler;
import io.khamsin.container.bridge.RouteWebFilter;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinMetricsAutoConfigurationTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KhamsinMetricsAutoConfiguration.class,
				KhamsinReactiveWebServerAutoConfiguration.class));

	@Test
	void theServerRecordsIntoTheMetricsBean() {
		this.runner.run((context) -> {
			KhamsinMetrics metrics = context.getBean(KhamsinMetrics.class);
			KhamsinWebServer server = (KhamsinWebServer) context.getBean(KhamsinReactiveWebServerFactory.class)
				.getWebServer(HANDLER);
			assertThat(server.getKhamsinServer().metrics()).isSameAs(metrics);
			assertThat(metrics.enabled()).isTrue();
			assertThat(context).hasSingleBean(RouteWebFilter.class);
		});
	}

	@Test
	void whereRequestsAreObservedRoutesComeFromTheObservationNotFromAWebFilter() {
		this.runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> assertThat(context).hasSingleBean(RouteObservationHandler.class)
				.doesNotHaveBean(RouteWebFilter.class));
	}

	@Test
	void switchedOffMetricsRecordNothingAndTagNoRoutes() {
		this.runner.withPropertyValues("khamsin.metrics.enabled=false").run((context) -> {
			assertThat(context.getBean(KhamsinMetrics.class).enabled()).isFalse();
			assertThat(context).doesNotHaveBean(RouteWebFilter.class).doesNotHaveBean(RouteObservationHandler.class);
		});
	}

	@Test
	void metricsOptionsReachTheEngine() {
		this.runner.withPropertyValues("khamsin.metrics.max-routes=3", "khamsin.metrics.interval=10s")
			.run((context) -> assertThat(context.getBean(KhamsinMetrics.class).config())
				.isEqualTo(MetricsConfig.builder().maxRoutes(3).interval(Duration.ofSeconds(10)).build()));
	}

	@Test
	void doesNotApplyWhenKhamsinIsDisabled() {
		this.runner.withPropertyValues("khamsin.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinMetrics.class)
				.doesNotHaveBean(RouteWebFilter.class));
	}

	@Test
	void doesNotApplyToANonWebApplication() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KhamsinMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinMetrics.class));
	}

	@Test
	void eachDefaultEqualsTheEngineDefault() {
		KhamsinMetricsProperties properties = new Binder(new MapConfigurationPropertySource(Map.of()))
			.bindOrCreate("khamsin.metrics", KhamsinMetricsProperties.class);
		assertThat(properties.toMetricsConfig()).isEqualTo(MetricsConfig.defaults());
		assertThat(properties.percentileHistogram()).isTrue();
		assertThat(properties.slo()).isEmpty();
	}

}
