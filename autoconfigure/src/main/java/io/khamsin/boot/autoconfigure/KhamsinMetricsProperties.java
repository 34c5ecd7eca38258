package io.khamsin.boot.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.khamsin.container.metrics.MetricsConfig;

/**
 * Configuration of khamsin's figures and of the meters that publish them ({@code khamsin.metrics.*}). The
 * engine's options default to {@link MetricsConfig}'s defaults.
 *
 * @param enabled Whether khamsin records request latencies, requests in flight and bytes. When false, nothing is
 * recorded per request and only connection and guard counts are kept.
 * @param maxRoutes Most distinct routes (WebFlux's best matching patterns) tagged. Further patterns are tagged
 * 'other'.
 * @param interval Length of the latency interval that /actuator/latency reports next to the figures since start.
 * @param percentileHistogram Whether the khamsin.requests timer publishes a percentile histogram (Prometheus
 * '_bucket' series, for histogram_quantile).
 * @param slo Service level objectives of the khamsin.requests timer: each is also published as a bucket.
 * @param minimumExpectedValue Smallest latency the khamsin.requests histogram buckets distinguish.
 * @param maximumExpectedValue Largest latency the khamsin.requests histogram buckets distinguish.
 */
@ConfigurationProperties("khamsin.metrics")
public record KhamsinMetricsProperties(@DefaultValue("true") boolean enabled, @DefaultValue("64") int maxRoutes,
		@DefaultValue("1m") Duration interval, @DefaultValue("true") boolean percentileHistogram,
		@DefaultValue List<Duration> slo, @DefaultValue("50us") Duration minimumExpectedValue,
		@DefaultValue("30s") Duration maximumExpectedValue) {

	/**
	 * The engine's configuration of these properties.
	 * @return the configuration
	 */
	public MetricsConfig toMetricsConfig() {
		return MetricsConfig.builder().enabled(this.enabled).maxRoutes(this.maxRoutes).interval(this.interval).build();
	}

}
