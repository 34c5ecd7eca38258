package io.khamsin.actuate.cache;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import io.khamsin.boot.cache.KhamsinPageCacheAutoConfiguration;
import io.khamsin.container.cache.DefaultPageCache;

import static org.assertj.core.api.Assertions.assertThat;

class PageCacheActuatorAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				KhamsinPageCacheAutoConfiguration.class, PageCacheActuatorAutoConfiguration.class));

	@Test
	void theEndpointAndTheMetersShowTheApplicationsPageCache() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true",
				"management.endpoints.web.exposure.include=pagecache")
			.run((context) -> {
				assertThat(context).hasSingleBean(PageCacheEndpoint.class).hasSingleBean(PageCacheMeterBinder.class);
				DefaultPageCache cache = context.getBean(DefaultPageCache.class);
				PageCacheEndpoint.PageCacheDescriptor figures = context.getBean(PageCacheEndpoint.class).pageCache();
				assertThat(figures.maxBytes()).isEqualTo(cache.config().maxSize());
			});
	}

	@Test
	void theEndpointDoesNotApplyWhenNotExposed() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(PageCacheEndpoint.class)
				.hasSingleBean(PageCacheMeterBinder.class));
	}

	@Test
	void nothingAppliesWithoutAPageCache() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=*")
			.run((context) -> assertThat(context).doesNotHaveBean(PageCacheEndpoint.class)
				.doesNotHaveBean(PageCacheMeterBinder.class));
	}

	@Test
	void theEndpointDoesNotApplyWithoutActuatorNorTheMetersWithoutMicrometer() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true", "management.endpoints.web.exposure.include=*")
			.withClassLoader(new FilteredClassLoader(Endpoint.class, MeterRegistry.class))
			.run((context) -> assertThat(context).hasSingleBean(DefaultPageCache.class)
				.doesNotHaveBean(PageCacheEndpoint.class)
				.doesNotHaveBean(PageCacheMeterBinder.class));
	}

}
