package io.khamsin.container.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The immutable configuration of the page cache. Every option has its default written next to it in
 * {@link Builder}; {@link #defaults()} is the cache switched off with every other default.
 *
 * @param enabled whether requests are looked up and responses stored
 * @param maxSize the most bytes the local tier holds: keys, heads, bodies and compressed variants
 * @param defaultTtl how long a response stays fresh when it says {@code public} and no lifetime
 * ({@code s-maxage}, {@code max-age}, {@code Expires})
 * @param rules per path pattern, a fixed lifetime or "respect Cache-Control"; the first match applies
 * @param admissionThreshold a key is stored on its N-th miss (1: on the first); the misses are counted by a
 * bounded sketch, so a key may be admitted a little early, never late
 * @param maxObjectSize the largest body stored; a larger one is rendered and not kept
 * @param statuses the statuses stored
 * @param staleWhileRevalidate how long past its freshness an entry is served while one background render
 * refreshes it (RFC 5861), unless the response names its own; zero: off
 * @param staleIfError how long past its freshness an entry is served instead of a 500, 502, 503 or 504 of the
 * application (RFC 5861), unless the response names its own; zero: off
 * @param maxWaiters the most requests that wait for one render of a key (single-flight); more go to the
 * application themselves
 * @param waitTimeout the longest a request waits for another's render of its key before it goes to the
 * application itself
 * @param tagHeader the response header whose comma- or space-separated values tag an entry for purges
 * @param compressibleTypes the content types (prefixes, such as {@code text/}) whose entries get compressed
 * variants
 * @param offLoopVariantSize bodies larger than this are compressed off the event loop, and their first clients get
 * the identity body; smaller ones are compressed at once, on the loop
 * @param shared the shared (fleet) tier
 * @param paths the path patterns whose requests are looked up, such as {@code /page/**}; none: every path. A
 * request outside them goes to the application without a lookup, as if there were no page cache
 * @param localTier whether entries are kept in this instance's memory; off (with the shared tier on), every hit is
 * read from the shared tier and nothing is served stale
 */
public record PageCacheConfig(boolean enabled, long maxSize, Duration defaultTtl, List<PageCacheRule> rules,
		int admissionThreshold, long maxObjectSize, Set<Integer> statuses, Duration staleWhileRevalidate,
		Duration staleIfError, int maxWaiters, Duration waitTimeout, String tagHeader, List<String> compressibleTypes,
		int offLoopVariantSize, SharedTierConfig shared, List<String> paths, boolean localTier) {

	/** Default: off. */
	public static final boolean DEFAULT_ENABLED = false;

	/** Default: entries are kept in memory. */
	public static final boolean DEFAULT_LOCAL_TIER = true;

	/** Default local tier size: 64 MiB. */
	public static final long DEFAULT_MAX_SIZE = 64L * 1024 * 1024;

	/** Default lifetime of a {@code public} response that names none. */
	public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

	/** Default admission: store on the first miss. */
	public static final int DEFAULT_ADMISSION_THRESHOLD = 1;

	/** Default largest body stored: 1 MiB. */
	public static final long DEFAULT_MAX_OBJECT_SIZE = 1024L * 1024;

	/** Default statuses stored, those RFC 9110 section 15.1 calls heuristically cacheable that pages use most. */
	public static final Set<Integer> DEFAULT_STATUSES = Set.of(200, 301, 404);

	/** Default stale-while-revalidate: off. */
	public static final Duration DEFAULT_STALE_WHILE_REVALIDATE = Duration.ZERO;

	/** Default stale-if-error: off. */
	public static final Duration DEFAULT_STALE_IF_ERROR = Duration.ZERO;

	/** Default most waiters of one render. */
	public static final int DEFAULT_MAX_WAITERS = 256;

	/** Default longest wait for another request's render. */
	public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);

	/** Default tag header, as several CDNs name it. */
	public static final String DEFAULT_TAG_HEADER = "Cache-Tag";

	/** Default compressible types: text and the structured text formats. */
	public static final List<String> DEFAULT_COMPRESSIBLE_TYPES = List.of("text/", "application/json",
			"application/javascript", "application/xml", "application/xhtml+xml", "image/svg+xml");

	/**
	 * Default size past which a variant is made off the event loop: 16 KiB. JDK gzip at level 6 runs at about
	 * 50-100 MB/s on HTML, so 16 KiB is 150-300 us of a reactor's time, about the cost of rendering a small page;
	 * a 50 KB page would hold every other connection of the loop for up to a millisecond.
	 */
	public static final int DEFAULT_OFF_LOOP_VARIANT_SIZE = 16 * 1024;

	public PageCacheConfig {
		if (maxSize <= 0) {
			throw new IllegalArgumentException("maxSize must be positive, was " + maxSize);
		}
		requirePositive("defaultTtl", defaultTtl);
		rules = List.copyOf((rules != null) ? rules : List.of());
		if (admissionThreshold < 1) {
			throw new IllegalArgumentException("admissionThreshold must be at least 1, was " + admissionThreshold);
		}
		if (maxObjectSize <= 0 || maxObjectSize > Integer.MAX_VALUE - 1024) {
			throw new IllegalArgumentException("maxObjectSize must be positive and below 2 GiB, was " + maxObjectSize);
		}
		if (maxObjectSize > maxSize) {
			throw new IllegalArgumentException(
					"maxObjectSize (" + maxObjectSize + ") must not exceed maxSize (" + maxSize + ")");
		}
		if (statuses == null || statuses.isEmpty()) {
			throw new IllegalArgumentException("statuses must not be empty");
		}
		for (int status : statuses) {
			if (status < 200 || status > 599) {
				throw new IllegalArgumentException("statuses must be final statuses (200-599), held " + status);
			}
		}
		statuses = Set.copyOf(statuses);
		requireNotNegative("staleWhileRevalidate", staleWhileRevalidate);
		requireNotNegative("staleIfError", staleIfError);
		if (maxWaiters < 0) {
			throw new IllegalArgumentException("maxWaiters must be >= 0, was " + maxWaiters);
		}
		requirePositive("waitTimeout", waitTimeout);
		if (tagHeader == null || tagHeader.isBlank()) {
			throw new IllegalArgumentException("tagHeader must not be blank");
		}
		compressibleTypes = List.copyOf((compressibleTypes != null) ? compressibleTypes : List.of());
		if (offLoopVariantSize < 0) {
			throw new IllegalArgumentException("offLoopVariantSize must be >= 0, was " + offLoopVariantSize);
		}
		if (shared == null) {
			throw new IllegalArgumentException("shared must not be null");
		}
		paths = List.copyOf((paths != null) ? paths : List.of());
		PathScope.of(paths);
		if (!localTier && !shared.enabled()) {
			throw new IllegalArgumentException("localTier may be off only with the shared tier on: with neither, "
					+ "nothing would be cached");
		}
	}

	/** @return the page cache switched off, every other option at its default */
	public static PageCacheConfig defaults() {
		return builder().build();
	}

	/** @return a builder whose every option starts at its default */
	public static Builder builder() {
		return new Builder();
	}

	/** @return a builder that starts from this configuration */
	public Builder toBuilder() {
		return new Builder().enabled(this.enabled)
			.maxSize(this.maxSize)
			.defaultTtl(this.defaultTtl)
			.rules(this.rules)
			.admissionThreshold(this.admissionThreshold)
			.maxObjectSize(this.maxObjectSize)
			.statuses(this.statuses)
			.staleWhileRevalidate(this.staleWhileRevalidate)
			.staleIfError(this.staleIfError)
			.maxWaiters(this.maxWaiters)
			.waitTimeout(this.waitTimeout)
			.tagHeader(this.tagHeader)
			.compressibleTypes(this.compressibleTypes)
			.offLoopVariantSize(this.offLoopVariantSize)
			.shared(this.shared)
			.paths(this.paths)
			.localTier(this.localTier);
	}

	private static void requirePositive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
		}
	}

	private static void requireNotNegative(String name, Duration value) {
		if (value == null || value.isNegative()) {
			throw new IllegalArgumentException(name + " must be zero (off) or positive, was " + value);
		}
	}

	/**
	 * Builds a {@link PageCacheConfig}; each option's default is the one written here.
	 */
	public static final class Builder {

		private boolean enabled = DEFAULT_ENABLED;

		private long maxSize = DEFAULT_MAX_SIZE;

		private Duration defaultTtl = DEFAULT_TTL;

		private List<PageCacheRule> rules = List.of();

		private int admissionThreshold = DEFAULT_ADMISSION_THRESHOLD;

		private long maxObjectSize = DEFAULT_MAX_OBJECT_SIZE;

		private Set<Integer> statuses = DEFAULT_STATUSES;

		private Duration staleWhileRevalidate = DEFAULT_STALE_WHILE_REVALIDATE;

		private Duration staleIfError = DEFAULT_STALE_IF_ERROR;

		private int maxWaiters = DEFAULT_MAX_WAITERS;

		private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

		private String tagHeader = DEFAULT_TAG_HEADER;

		private List<String> compressibleTypes = DEFAULT_COMPRESSIBLE_TYPES;

		private int offLoopVariantSize = DEFAULT_OFF_LOOP_VARIANT_SIZE;

		private SharedTierConfig shared = SharedTierConfig.defaults();

		private List<String> paths = List.of();

		private boolean localTier = DEFAULT_LOCAL_TIER;

		private Builder() {
		}

		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		public Builder maxSize(long maxSize) {
			this.maxSize = maxSize;
			return this;
		}

		public Builder defaultTtl(Duration defaultTtl) {
			this.defaultTtl = defaultTtl;
			return this;
		}

		public Builder rules(List<PageCacheRule> rules) {
			this.rules = rules;
			return this;
		}

		public Builder rule(PageCacheRule rule) {
			List<PageCacheRule> rules = new ArrayList<>(this.rules);
			rules.add(rule);
			this.rules = rules;
			return this;
		}

		public Builder admissionThreshold(int admissionThreshold) {
			this.admissionThreshold = admissionThreshold;
			return this;
		}

		public Builder maxObjectSize(long maxObjectSize) {
			this.maxObjectSize = maxObjectSize;
			return this;
		}

		public Builder statuses(Set<Integer> statuses) {
			this.statuses = (statuses != null) ? new TreeSet<>(statuses) : null;
			return this;
		}

		public Builder staleWhileRevalidate(Duration staleWhileRevalidate) {
			this.staleWhileRevalidate = staleWhileRevalidate;
			return this;
		}

		public Builder staleIfError(Duration staleIfError) {
			this.staleIfError = staleIfError;
			return this;
		}

		public Builder maxWaiters(int maxWaiters) {
			this.maxWaiters = maxWaiters;
			return this;
		}

		public Builder waitTimeout(Duration waitTimeout) {
			this.waitTimeout = waitTimeout;
			return this;
		}

		public Builder tagHeader(String tagHeader) {
			this.tagHeader = tagHeader;
			return this;
		}

		public Builder compressibleTypes(List<String> compressibleTypes) {
			this.compressibleTypes = compressibleTypes;
			return this;
		}

		public Builder offLoopVariantSize(int offLoopVariantSize) {
			this.offLoopVariantSize = offLoopVariantSize;
			return this;
		}

		public Builder shared(SharedTierConfig shared) {
			this.shared = shared;
			return this;
		}

		public Builder paths(List<String> paths) {
			this.paths = paths;
			return this;
		}

		public Builder localTier(boolean localTier) {
			this.localTier = localTier;
			return this;
		}

		public PageCacheConfig build() {
			return new PageCacheConfig(this.enabled, this.maxSize, this.defaultTtl, this.rules,
					this.admissionThreshold, this.maxObjectSize, this.statuses, this.staleWhileRevalidate,
					this.staleIfError, this.maxWaiters, this.waitTimeout, this.tagHeader, this.compressibleTypes,
					this.offLoopVariantSize, this.shared, this.paths, this.localTier);
		}

	}

}
