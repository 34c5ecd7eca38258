package io.khamsin.boot.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.khamsin.container.cache.PageCacheConfig;
import io.khamsin.container.cache.PageCacheRule;
import io.khamsin.container.cache.SharedTierConfig;

/**
 * The page cache ({@code khamsin.page-cache.*}): cacheable GET and HEAD responses answered by the engine before the
 * application. Each default equals the engine's in {@link PageCacheConfig} and {@link SharedTierConfig}.
 *
 * @param enabled Whether the page cache looks requests up and stores cacheable responses.
 * @param maxSize Most memory the local tier takes: keys, heads, bodies and compressed variants.
 * @param defaultTtl How long a response that says 'Cache-Control: public' and no lifetime stays fresh.
 * @param rules Per path pattern (such as /page/**), a fixed lifetime ('ttl') or, with no ttl, the response's own
 * Cache-Control. The first matching rule applies.
 * @param admissionThreshold A key is stored on its N-th miss; 1 stores on the first.
 * @param maxObjectSize Largest body stored.
 * @param statuses Statuses stored.
 * @param staleWhileRevalidate How long past its freshness an entry is served while one background render refreshes
 * it, unless the response names its own; 0 is off.
 * @param staleIfError How long past its freshness an entry is served instead of a 500, 502, 503 or 504, unless the
 * response names its own; 0 is off.
 * @param maxWaiters Most requests that wait for one render of a key; more go to the application.
 * @param waitTimeout Longest a request waits for another request's render of its key before it goes to the
 * application itself.
 * @param tagHeader Response header whose values tag an entry for purges by tag.
 * @param compressibleTypes Content types (prefixes) whose entries get compressed variants.
 * @param offLoopVariantSize Bodies larger than this are compressed off the event loop.
 * @param shared The shared (fleet) tier on Redis.
 * @param paths Path patterns (such as /page/**) whose requests are looked up; other requests go to the application
 * without a lookup. Empty: every path.
 * @param localTier Whether entries are kept in this instance's memory; off (with the shared tier on), every hit is
 * read from Redis and nothing is served stale.
 */
@ConfigurationProperties("khamsin.page-cache")
public record KhamsinPageCacheProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("64MB") DataSize maxSize, @DefaultValue("60s") Duration defaultTtl, List<Rule> rules,
		@DefaultValue("1") int admissionThreshold, @DefaultValue("1MB") DataSize maxObjectSize,
		@DefaultValue({ "200", "301", "404" }) Set<Integer> statuses, @DefaultValue("0s") Duration staleWhileRevalidate,
		@DefaultValue("0s") Duration staleIfError, @DefaultValue("256") int maxWaiters,
		@DefaultValue("5s") Duration waitTimeout, @DefaultValue("Cache-Tag") String tagHeader,
		@DefaultValue({ "text/", "application/json", "application/javascript", "application/xml",
				"application/xhtml+xml", "image/svg+xml" }) List<String> compressibleTypes,
		@DefaultValue("16KB") DataSize offLoopVariantSize, @DefaultValue Shared shared, List<String> paths,
		@DefaultValue("true") boolean localTier) {

	public KhamsinPageCacheProperties {
		rules = (rules != null) ? List.copyOf(rules) : List.of();
		paths = (paths != null) ? List.copyOf(paths) : List.of();
	}

	/**
	 * One rule.
	 *
	 * @param path Path pattern, such as /page/** or /static/{file}.css.
	 * @param ttl Lifetime of the responses of its paths whatever their Cache-Control says; leave it out to respect
	 * their Cache-Control.
	 */
	public record Rule(String path, Duration ttl) {

	}

	/**
	 * The shared tier, on the Redis connection of spring.data.redis.*.
	 *
	 * @param enabled Whether a local miss asks Redis before rendering, and renders are stored there too.
	 * @param timeout Longest a request waits for Redis; past it the request goes on as a local miss and the failure
	 * is counted.
	 * @param retryInterval After a failure, how long Redis is left alone before it is asked again.
	 * @param keyPrefix Prefix of every key the page cache writes in Redis.
	 * @param purgeChannel Pub/sub channel on which purges reach every instance.
	 */
	public record Shared(@DefaultValue("false") boolean enabled, @DefaultValue("50ms") Duration timeout,
			@DefaultValue("1s") Duration retryInterval, @DefaultValue("khamsin:page:") String keyPrefix,
			@DefaultValue("khamsin:page-cache:purge") String purgeChannel) {

		/** @return the engine's shared-tier settings */
		public SharedTierConfig toConfig() {
			return new SharedTierConfig(this.enabled, this.timeout, this.retryInterval, this.keyPrefix,
					this.purgeChannel);
		}

	}

	/**
	 * The engine's configuration.
	 * @return the configuration
	 * @throws IllegalArgumentException naming the property that is wrong
	 */
	public PageCacheConfig toConfig() {
		List<PageCacheRule> rules = new ArrayList<>();
		for (int i = 0; i < this.rules.size(); i++) {
			Rule rule = this.rules.get(i);
			if (rule.path() == null) {
				throw new IllegalArgumentException("khamsin.page-cache.rules[" + i + "].path must be set");
			}
			rules.add(new PageCacheRule(rule.path(), rule.ttl()));
		}
		return PageCacheConfig.builder()
			.enabled(this.enabled)
			.maxSize(this.maxSize.toBytes())
			.defaultTtl(this.defaultTtl)
			.rules(rules)
			.admissionThreshold(this.admissionThreshold)
			.maxObjectSize(this.maxObjectSize.toBytes())
			.statuses(new LinkedHashSet<>(this.statuses))
			.staleWhileRevalidate(this.staleWhileRevalidate)
			.staleIfError(this.staleIfError)
			.maxWaiters(this.maxWaiters)
			.waitTimeout(this.waitTimeout)
			.tagHeader(this.tagHeader)
			.compressibleTypes(this.compressibleTypes)
			.offLoopVariantSize(Math.toIntExact(this.offLoopVariantSize.toBytes()))
			.shared(this.shared.toConfig())
			.paths(this.paths)
			.localTier(this.localTier)
			.build();
	}

}
