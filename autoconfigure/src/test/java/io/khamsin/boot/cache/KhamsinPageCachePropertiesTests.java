package io.khamsin.boot.cache;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.PageCacheRule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KhamsinPageCachePropertiesTests {

	private static KhamsinPageCacheProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties))
			.bindOrCreate("khamsin.page-cache", KhamsinPageCacheProperties.class);
	}

	@Test
	void defaultPropertiesGiveTheEngineExactlyItsDefaultConfiguration() {
		assertThat(bind(Map.of()).toConfig()).isEqualTo(PageCacheConfig.defaults());
	}

	@Test
	void eachDefaultEqualsTheEngineDefault() {
		KhamsinPageCacheProperties properties = bind(Map.of());
		assertThat(properties.enabled()).isEqualTo(PageCacheConfig.DEFAULT_ENABLED);
		assertThat(properties.maxSize().toBytes()).isEqualTo(PageCacheConfig.DEFAULT_MAX_SIZE);
		assertThat(properties.defaultTtl()).isEqualTo(PageCacheConfig.DEFAULT_TTL);
		assertThat(properties.admissionThreshold()).isEqualTo(PageCacheConfig.DEFAULT_ADMISSION_THRESHOLD);
		assertThat(properties.maxObjectSize().toBytes()).isEqualTo(PageCacheConfig.DEFAULT_MAX_OBJECT_SIZE);
		assertThat(properties.statuses()).isEqualTo(PageCacheConfig.DEFAULT_STATUSES);
		assertThat(properties.staleWhileRevalidate()).isEqualTo(PageCacheConfig.DEFAULT_STALE_WHILE_REVALIDATE);
		assertThat(properties.staleIfError()).isEqualTo(PageCacheConfig.DEFAULT_STALE_IF_ERROR);
		assertThat(properties.maxWaiters()).isEqualTo(PageCacheConfig.DEFAULT_MAX_WAITERS);
		assertThat(properties.waitTimeout()).isEqualTo(PageCacheConfig.DEFAULT_WAIT_TIMEOUT);
		assertThat(properties.tagHeader()).isEqualTo(PageCacheConfig.DEFAULT_TAG_HEADER);
		assertThat(properties.compressibleTypes()).isEqualTo(PageCacheConfig.DEFAULT_COMPRESSIBLE_TYPES);
		assertThat(properties.offLoopVariantSize().toBytes()).isEqualTo(PageCacheConfig.DEFAULT_OFF_LOOP_VARIANT_SIZE);
		assertThat(properties.shared().toConfig()).isEqualTo(io.khamsin.container.cache.SharedTierConfig.defaults());
		assertThat(properties.localTier()).isEqualTo(PageCacheConfig.DEFAULT_LOCAL_TIER);
		assertThat(properties.paths()).isEqualTo(PageCacheConfig.defaults().paths());
	}

	@Test
	void rulesAndTheSharedTierBindAndReachTheEngine() {
		PageCacheConfig config = bind(Map.of("khamsin.page-cache.enabled", "true",
				"khamsin.page-cache.max-size", "8MB", "khamsin.page-cache.rules[0].path", "/page/**",
				"khamsin.page-cache.rules[0].ttl", "30s", "khamsin.page-cache.rules[1].path", "/api/**",
				"khamsin.page-cache.statuses", "200,410", "khamsin.page-cache.stale-while-revalidate", "1m",
				"khamsin.page-cache.shared.enabled", "true", "khamsin.page-cache.shared.timeout", "20ms",
				"khamsin.page-cache.paths", "/page/**,/static/**"))
			.toConfig();
		assertThat(config.enabled()).isTrue();
		assertThat(config.maxSize()).isEqualTo(8 * 1024 * 1024);
		assertThat(config.rules()).containsExactly(PageCacheRule.ttl("/page/**", Duration.ofSeconds(30)),
				PageCacheRule.respectCacheControl("/api/**"));
		assertThat(config.statuses()).isEqualTo(Set.of(200, 410));
		assertThat(config.staleWhileRevalidate()).isEqualTo(Duration.ofMinutes(1));
		assertThat(config.shared().enabled()).isTrue();
		assertThat(config.shared().timeout()).isEqualTo(Duration.ofMillis(20));
		assertThat(config.paths()).containsExactly("/page/**", "/static/**");
	}

	@Test
	void aWrongValueIsRefusedWithItsName() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> bind(Map.of("khamsin.page-cache.rules[0].ttl", "30s")).toConfig())
			.withMessageContaining("khamsin.page-cache.rules[0].path");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> bind(Map.of("khamsin.page-cache.max-object-size", "128MB")).toConfig())
			.withMessageContaining("maxObjectSize");
	}

}
