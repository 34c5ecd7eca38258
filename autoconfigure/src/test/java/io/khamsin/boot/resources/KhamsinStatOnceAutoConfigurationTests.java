package io.khamsin.boot.resources;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.config.ResourceHandlerRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.handler.AbstractUrlHandlerMapping;
import org.springframework.web.reactive.resource.PathResourceResolver;
import org.springframework.web.reactive.resource.ResourceResolver;
import org.springframework.web.reactive.resource.ResourceWebHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resource handlers an application registers, and Boot's own, resolve files by one {@code stat} unless
 * {@code khamsin.egress.stat-once} is turned off.
 */
class KhamsinStatOnceAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WebFluxAutoConfiguration.class, KhamsinStatOnceAutoConfiguration.class))
		.withUserConfiguration(Files.class);

	@Test
	void everyResourceHandlerResolvesFilesByOneStat() {
		this.runner.run((context) -> assertThat(resolvers(context)).isNotEmpty()
			.allSatisfy((resolvers) -> assertThat(resolvers).hasAtLeastOneElementOfType(StatOnceResourceResolver.class)
				.noneMatch((resolver) -> resolver.getClass() == PathResourceResolver.class)));
	}

	@Test
	void turnedOffSpringsResolverStays() {
		this.runner.withPropertyValues("khamsin.egress.stat-once=false")
			.run((context) -> assertThat(resolvers(context)).isNotEmpty()
				.allSatisfy((resolvers) -> assertThat(resolvers).noneMatch(StatOnceResourceResolver.class::isInstance)
					.anyMatch((resolver) -> resolver.getClass() == PathResourceResolver.class)));
	}

	private static List<List<ResourceResolver>> resolvers(AssertableReactiveWebApplicationContext context) {
		return context.getBeansOfType(AbstractUrlHandlerMapping.class)
			.values()
			.stream()
			.flatMap((mapping) -> mapping.getHandlerMap().values().stream())
			.filter(ResourceWebHandler.class::isInstance)
			.map((handler) -> ((ResourceWebHandler) handler).getResourceResolvers())
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class Files implements WebFluxConfigurer {

		@Override
		public void addResourceHandlers(ResourceHandlerRegistry registry) {
			registry.addResourceHandler("/files/**").addResourceLocations("file:/srv/files/");
		}

	}

}
