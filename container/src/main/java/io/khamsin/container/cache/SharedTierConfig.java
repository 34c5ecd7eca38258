package io.khamsin.container.cache;

import java.time.Duration;

/**
 * The settings of the page cache's shared (fleet) tier; the connection to the store is the tier's own (for Redis,
 * the application's). Every option has its default written next to it.
 *
 * @param enabled whether a local miss asks the shared tier before rendering, and renders are stored there too
 * @param timeout the longest a request waits for the shared tier; past it the request goes on as a local miss and
 * the failure is counted
 * @param retryInterval after a failure, how long the tier is left alone before it is asked again (requests in
 * between go on without it, so an outage costs at most one timeout per interval)
 * @param keyPrefix the prefix of every key the tier writes
 * @param purgeChannel the pub/sub channel on which purges reach every instance
 */
public record SharedTierConfig(boolean enabled, Duration timeout, Duration retryInterval, String keyPrefix,
		String purgeChannel) {

	/** Default: no shared tier. */
	public static final boolean DEFAULT_ENABLED = false;

	/** Default timeout: a loopback or same-zone Redis answers in well under a millisecond. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);

	/** Default pause after a failure. */
	public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(1);

	/** Default key prefix. */
	public static final String DEFAULT_KEY_PREFIX = "khamsin:page:";

	/** Default purge channel. */
	public static final String DEFAULT_PURGE_CHANNEL = "khamsin:page-cache:purge";

	public SharedTierConfig {
		requirePositive("timeout", timeout);
		requirePositive("retryInterval", retryInterval);
		if (keyPrefix == null || keyPrefix.isEmpty()) {
			throw new IllegalArgumentException("keyPrefix must not be empty");
		}
		if (purgeChannel == null || purgeChannel.isEmpty()) {
			throw new IllegalArgumentException("purgeChannel must not be empty");
		}
	}

	/** @return the defaults: no shared tier */
	public static SharedTierConfig defaults() {
		return new SharedTierConfig(DEFAULT_ENABLED, DEFAULT_TIMEOUT, DEFAULT_RETRY_INTERVAL, DEFAULT_KEY_PREFIX,
				DEFAULT_PURGE_CHANNEL);
	}

	/**
	 * The same settings, turned on or off.
	 * @param enabled whether the shared tier is used
	 * @return the settings
	 */
	public SharedTierConfig withEnabled(boolean enabled) {
		return new SharedTierConfig(enabled, this.timeout, this.retryInterval, this.keyPrefix, this.purgeChannel);
	}

	/**
	 * The same settings with another timeout.
	 * @param timeout the longest a request waits for the shared tier
	 * @return the settings
	 */
	public SharedTierConfig withTimeout(Duration timeout) {
		return new SharedTierConfig(this.enabled, timeout, this.retryInterval, this.keyPrefix, this.purgeChannel);
	}

	/**
	 * The same settings with another pause after a failure.
	 * @param retryInterval how long the tier is left alone after a failure
	 * @return the settings
	 */
	public SharedTierConfig withRetryInterval(Duration retryInterval) {
		return new SharedTierConfig(this.enabled, this.timeout, retryInterval, this.keyPrefix, this.purgeChannel);
	}

	/**
	 * The same settings with another key prefix and purge channel, e.g. one per application on a shared Redis.
	 * @param keyPrefix the key prefix
	 * @param purgeChannel the purge channel
	 * @return the settings
	 */
	public SharedTierConfig withNames(String keyPrefix, String purgeChannel) {
		return new SharedTierConfig(this.enabled, this.timeout, this.retryInterval, keyPrefix, purgeChannel);
	}

	private static void requirePositive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("shared tier " + name + " must be a positive duration, was " + value);
		}
	}

}
