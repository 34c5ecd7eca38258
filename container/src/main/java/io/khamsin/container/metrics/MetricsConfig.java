package io.khamsin.container.metrics;

import java.time.Duration;

/**
 * The immutable configuration of a server's figures. Every option has its default written next to it in
 * {@link Builder}.
 *
 * @param enabled whether requests, latencies and bytes are recorded; when off, the hot path records nothing
 * and only connection and guard counts are kept
 * @param maxRoutes the most distinct routes tagged; further patterns are counted as {@link Route#OTHER}
 * @param interval the length of a latency interval: the last complete one is reported next to the figures since
 * start
 */
public record MetricsConfig(boolean enabled, int maxRoutes, Duration interval) {

	/** Default most distinct routes. */
	public static final int DEFAULT_MAX_ROUTES = 64;

	/** Default latency interval. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

	public MetricsConfig {
		if (maxRoutes < 0) {
			throw new IllegalArgumentException("maxRoutes must be zero or positive, was " + maxRoutes);
		}
		if (interval == null || interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be a positive duration, was " + interval);
		}
	}

	/**
	 * A configuration with every default.
	 * @return the default configuration
	 */
	public static MetricsConfig defaults() {
		return builder().build();
	}

	/**
	 * A builder holding every default.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Builds a {@link MetricsConfig}; each field starts at its default.
	 */
	public static final class Builder {

		private boolean enabled = true;

		private int maxRoutes = DEFAULT_MAX_ROUTES;

		private Duration interval = DEFAULT_INTERVAL;

		private Builder() {
		}

		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		public Builder maxRoutes(int maxRoutes) {
			this.maxRoutes = maxRoutes;
			return this;
		}

		public Builder interval(Duration interval) {
			this.interval = interval;
			return this;
		}

		public MetricsConfig build() {
			return new MetricsConfig(this.enabled, this.maxRoutes, this.interval);
		}

	}

}
