package io.khamsin.actuate.metrics;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.khamsin.actuate.metrics.KhamsinMeterBinder.TimerSettings;
import io.khamsin.boot.autoconfigure.KhamsinMetricsAutoConfiguration;
import io.khamsin.boot.autoconfigure.KhamsinMetricsProperties;
import io.khamsin.container.metrics.KhamsinMetrics;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of khamsin's Micrometer meters, when the application has
 * Micrometer and khamsin serves it. Boot binds the {@link KhamsinMeterBinder} to every meter registry.
 */
@AutoConfiguration(after = KhamsinMetricsAutoConfiguration.class)
@ConditionalOnClass({ MeterRegistry.class, KhamsinMetrics.class })
@ConditionalOnBean(KhamsinMetrics.class)
public final class KhamsinMeterBinderAutoConfiguration {

	/** How often the engine's latencies move into the timers: the most a scrape can lag the requests. */
	private static final Duration DRAIN_INTERVAL = Duration.ofSeconds(1);

	@Bean
	@ConditionalOnMissingBean
	KhamsinMeterBinder khamsinMeterBinder(KhamsinMetrics metrics, KhamsinMetricsProperties properties) {
		TimerSettings timer = new TimerSettings(properties.percentileHistogram(), properties.slo(),
				properties.minimumExpectedValue(), properties.maximumExpectedValue());
		return new KhamsinMeterBinder(metrics, timer, DRAIN_INTERVAL);
	}

}
