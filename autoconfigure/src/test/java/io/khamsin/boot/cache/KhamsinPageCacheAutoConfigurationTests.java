package io.khamsin.boot.cache;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.boot.autoconfigure.KhamsinReactiveWebServerAutoConfiguration;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.PageCache;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.SharedTier;
import io.khamsin.container.cache.redis.LettuceSharedTier;
import io.khamsin.container.cache.redis.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

class KhamsinPageCacheAutoConfigurationTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KhamsinPageCacheAutoConfiguration.class,
				KhamsinReactiveWebServerAutoConfiguration.class));

	private static KhamsinServerConfig serverConfig(KhamsinReactiveWebServerFactory factory) {
		KhamsinWebServer server = (KhamsinWebServer) factory.getWebServer(HANDLER);
		try {
			return server.getKhamsinServer().config();
		}
		finally {
			server.stop();
		}
	}

	@Test
	void thereIsNoPageCacheUnlessItIsEnabled() {
		this.runner.run((context) -> {
			assertThat(context).doesNotHaveBean(PageCache.class).doesNotHaveBean(KhamsinPageCacheProperties.class);
			assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).pageCache()).isNull();
		});
	}

	@Test
	void theServerLooksRequestsUpInThePageCacheBean() {
		this.runner
			.withPropertyValues("khamsin.page-cache.enabled=true", "khamsin.page-cache.max-size=8MB",
					"khamsin.page-cache.rules[0].path=/page/**", "khamsin.page-cache.rules[0].ttl=30s")
			.run((context) -> {
				assertThat(context).hasSingleBean(PageCache.class);
				DefaultPageCache cache = context.getBean(DefaultPageCache.class);
				PageCacheConfig config = cache.config();
				assertThat(config.enabled()).isTrue();
				assertThat(config.maxSize()).isEqualTo(8L * 1024 * 1024);
				assertThat(config.rules()).hasSize(1);
				assertThat(config.shared().enabled()).isFalse();
				assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).pageCache())
					.isSameAs(cache);
			});
	}

	@Test
	void aWrongSettingFailsTheStartWithItsName() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true", "khamsin.page-cache.rules[0].ttl=30s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("khamsin.page-cache.rules[0].path"));
	}

	@Test
	void stepsAsideForAPageCacheOfTheApplication() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true")
			.withUserConfiguration(OwnPageCache.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(DefaultPageCache.class);
				DefaultPageCache own = context.getBean(OwnPageCache.class).cache;
				assertThat(context.getBean(DefaultPageCache.class)).isSameAs(own);
				assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).pageCache())
					.isSameAs(own);
			});
	}

	@Test
	void doesNotApplyWhenKhamsinIsNotTheServer() {
		this.runner.withPropertyValues("khamsin.enabled=false", "khamsin.page-cache.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(PageCache.class));
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KhamsinPageCacheAutoConfiguration.class))
			.withPropertyValues("khamsin.page-cache.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(PageCache.class));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KhamsinPageCacheAutoConfiguration.class))
			.withPropertyValues("khamsin.page-cache.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(PageCache.class));
	}

	@Test
	void aSharedTierWithoutLettuceOnTheClasspathFailsTheStartSayingWhatToAdd() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisClient.class, LettuceConnectionFactory.class))
			.withPropertyValues("khamsin.page-cache.enabled=true", "khamsin.page-cache.shared.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("not on the classpath")
				.hasMessageContaining("spring-boot-starter-data-redis"));
	}

	@Test
	void aSharedTierWithoutTheApplicationsRedisConnectionFailsTheStartSayingWhatToConfigure() {
		this.runner.withPropertyValues("khamsin.page-cache.enabled=true", "khamsin.page-cache.shared.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("LettuceConnectionFactory")
				.hasMessageContaining("spring.data.redis"));
	}

	@Test
	void thereIsNoSharedTierUnlessItIsEnabled() {
		this.runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("khamsin.page-cache.enabled=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(LettuceConnectionFactory.class).doesNotHaveBean(SharedTier.class);
				assertThat(context.getBean(DefaultPageCache.class).config().shared().enabled()).isFalse();
			});
	}

	@Test
	void theSharedTierRunsOnTheApplicationsRedisConnection() {
		try (RedisServer redis = RedisServer.start()) {
			this.runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("khamsin.page-cache.enabled=true", "khamsin.page-cache.shared.enabled=true",
						"khamsin.page-cache.shared.key-prefix=app:page:", "spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + redis.port(), "spring.data.redis.database=3")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					SharedTier tier = context.getBean(SharedTier.class);
					assertThat(tier).isInstanceOf(LettuceSharedTier.class);
					assertThat(context.getBean(DefaultPageCache.class).config().shared().enabled()).isTrue();
					byte[] entry = "stored".getBytes(StandardCharsets.UTF_8);
					tier.put("k", entry, Duration.ofMinutes(1), List.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
					assertThat(tier.get("k").toCompletableFuture().get(30, TimeUnit.SECONDS)).isEqualTo(entry);
					RedisClient raw = RedisClient.create(redis.uri() + "/3");
					try (var connection = raw.connect()) {
						assertThat(connection.sync().exists("app:page:k")).as("in the database Boot configured")
							.isEqualTo(1);
					}
					finally {
						raw.shutdown(Duration.ZERO, Duration.ofSeconds(2));
					}
				});
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPageCache {

		final DefaultPageCache cache = DefaultPageCache.builder(PageCacheConfig.builder().enabled(true).build()).build();

		@Bean
		DefaultPageCache ownPageCache() {
			return this.cache;
		}

	}

}
