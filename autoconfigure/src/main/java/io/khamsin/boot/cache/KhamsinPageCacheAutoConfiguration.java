package io.khamsin.boot.cache;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import io.khamsin.boot.autoconfigure.KhamsinReactiveWebServerAutoConfiguration;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.cache.CompressedVariantEncoder;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.PageCacheBuilder;
import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.SharedTier;
import io.khamsin.container.cache.VariantEncoder;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of khamsin's page cache when
 * {@code khamsin.page-cache.enabled=true}: the {@link DefaultPageCache} bean (the {@code PageCache} an application
 * purges through, and the one the server looks requests up in), its compressed-variant encoders from the
 * {@link VariantEncoder} beans (when there are none: zstd, br and gzip, those whose library loads), and with {@code khamsin.page-cache.shared.enabled=true}
 * its fleet tier on the application's own Lettuce connection to Redis ({@code spring.data.redis.*}).
 */
@AutoConfiguration(before = KhamsinReactiveWebServerAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(KhamsinServer.class)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("khamsin.page-cache.enabled")
@EnableConfigurationProperties(KhamsinPageCacheProperties.class)
public final class KhamsinPageCacheAutoConfiguration {

	private static final String LETTUCE_CLIENT = "io.lettuce.core.RedisClient";

	private static final String LETTUCE_FACTORY = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	DefaultPageCache khamsinPageCache(KhamsinPageCacheProperties properties, ObjectProvider<SharedTier> sharedTier,
			ObjectProvider<VariantEncoder> encoders, ApplicationContext context) {
		PageCacheConfig config;
		try {
			config = properties.toConfig();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid khamsin.page-cache settings: " + ex.getMessage(), ex);
		}
		PageCacheBuilder builder = DefaultPageCache.builder(config);
		List<VariantEncoder> variantEncoders = encoders.orderedStream().toList();
		builder.encoders(variantEncoders.isEmpty() ? CompressedVariantEncoder.available() : variantEncoders);
		if (config.shared().enabled()) {
			builder.sharedTier(requireSharedTier(sharedTier, context.getClassLoader()));
		}
		return builder.build();
	}

	@Bean
	KhamsinPageCacheCustomizer khamsinPageCacheCustomizer(DefaultPageCache khamsinPageCache) {
		return new KhamsinPageCacheCustomizer(khamsinPageCache);
	}

	private static SharedTier requireSharedTier(ObjectProvider<SharedTier> sharedTier, ClassLoader loader) {
		SharedTier tier = sharedTier.getIfAvailable();
		if (tier != null) {
			return tier;
		}
		if (!ClassUtils.isPresent(LETTUCE_CLIENT, loader) || !ClassUtils.isPresent(LETTUCE_FACTORY, loader)) {
			throw new IllegalStateException("khamsin.page-cache.shared.enabled=true needs Redis through Lettuce, "
					+ "which is not on the classpath: add spring-boot-starter-data-redis (and configure "
					+ "spring.data.redis.*), or set khamsin.page-cache.shared.enabled=false");
		}
		throw new IllegalStateException("khamsin.page-cache.shared.enabled=true needs the application's Redis "
				+ "connection through Lettuce (a LettuceConnectionFactory bean), and there is none: configure "
				+ "spring.data.redis.* with the Lettuce client (Boot's default, spring.data.redis.client-type=lettuce), "
				+ "or set khamsin.page-cache.shared.enabled=false");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("khamsin.page-cache.shared.enabled")
	@ConditionalOnClass(name = { LETTUCE_CLIENT, LETTUCE_FACTORY })
	static final class LettuceSharedTierConfiguration {

		// Closed by the page cache, which owns it.
		@Bean(destroyMethod = "")
		@ConditionalOnMissingBean(SharedTier.class)
		@ConditionalOnBean(type = LETTUCE_FACTORY)
		SharedTier khamsinPageCacheSharedTier(LettuceConnectionFactory redis, KhamsinPageCacheProperties properties) {
			return LettuceSharedTiers.create(redis, properties.shared().toConfig());
		}

	}

}
