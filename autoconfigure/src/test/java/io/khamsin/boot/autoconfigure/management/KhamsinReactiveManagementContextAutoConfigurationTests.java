package io.khamsin.boot.autoconfigure.management;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.actuate.web.server.NettyReactiveManagementContextAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.autoconfigure.KhamsinReactiveWebServerAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinReactiveManagementContextAutoConfigurationTests {

	private static final String FACTORY = "khamsinManagementContextFactory";

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class,
				KhamsinReactiveManagementContextAutoConfiguration.class))
		.withPropertyValues("server.port=0");

	@Test
	void suppliesTheManagementContextFactoryWhenTheManagementPortDiffers() {
		this.runner.withPropertyValues("management.server.port=0")
			.run((context) -> assertThat(context).hasSingleBean(ManagementContextFactory.class).hasBean(FACTORY));
	}

	@Test
	void isPreferredToReactorNettysManagementContextFactory() {
		this.runner
			.withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
					NettyReactiveManagementContextAutoConfiguration.class))
			.withPropertyValues("management.server.port=0")
			.run((context) -> {
				assertThat(context).getBeans(ManagementContextFactory.class).hasSize(2);
				assertThat(context.getBean(ManagementContextFactory.class)).isSameAs(context.getBean(FACTORY));
			});
	}

	@Test
	void doesNotApplyWhenTheManagementPortIsTheServerPort() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
	}

	@Test
	void doesNotApplyWhenTheManagementServerIsDisabled() {
		this.runner.withPropertyValues("management.server.port=-1")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
	}

	@Test
	void doesNotApplyWhenKhamsinIsDisabled() {
		this.runner.withPropertyValues("management.server.port=0", "khamsin.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
	}

	@Test
	void doesNotApplyWhenAnotherServerServesTheApplication() {
		this.runner.withUserConfiguration(ReactorNettyFactoryConfiguration.class)
			.withPropertyValues("management.server.port=0")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
	}

	@Test
	void khamsinServesWithoutActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(ManagementContextFactory.class))
			.withPropertyValues("management.server.port=0")
			.run((context) -> assertThat(context).hasSingleBean(KhamsinReactiveWebServerFactory.class)
				.doesNotHaveBean(KhamsinReactiveManagementContextAutoConfiguration.class));
	}

	@Test
	void doesNotApplyToAServletWebApplication() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class,
					KhamsinReactiveManagementContextAutoConfiguration.class))
			.withPropertyValues("server.port=0", "management.server.port=0")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class ReactorNettyFactoryConfiguration {

		@Bean
		ReactiveWebServerFactory reactorNettyFactory() {
			return new NettyReactiveWebServerFactory();
		}

	}

}
