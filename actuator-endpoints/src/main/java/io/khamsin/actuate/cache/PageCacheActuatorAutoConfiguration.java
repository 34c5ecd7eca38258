package io.khamsin.actuate.cache;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.khamsin.boot.cache.KhamsinPageCacheAutoConfiguration;
import io.khamsin.container.cache.PageCache;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the page cache in actuator, when the application has a
 * {@link PageCache}: {@code /actuator/pagecache} (exposed by Boot's usual rules,
 * {@code management.endpoints.web.exposure.include}) where the application has actuator, and the
 * {@code khamsin.pagecache.*} meters where it has Micrometer.
 */
@AutoConfiguration(after = KhamsinPageCacheAutoConfiguration.class)
@ConditionalOnClass(PageCache.class)
@ConditionalOnBean(PageCache.class)
public final class PageCacheActuatorAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
	static final class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnAvailableEndpoint
		PageCacheEndpoint pageCacheEndpoint(PageCache pageCache) {
			return new PageCacheEndpoint(pageCache);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static final class MeterConfiguration {

		@Bean
		@ConditionalOnMissingBean
		PageCacheMeterBinder pageCacheMeterBinder(PageCache pageCache) {
			return new PageCacheMeterBinder(pageCache);
		}

	}

}
