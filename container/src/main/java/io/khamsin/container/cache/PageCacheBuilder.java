package io.khamsin.container.cache;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongSupplier;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Builds a {@link DefaultPageCache} ({@link DefaultPageCache#builder}): its configuration, and what the
 * configuration cannot hold (the shared tier's store, the variant encoders, the threads and memory it uses, its
 * clock), each with its default next to it.
 */
public final class PageCacheBuilder {

	private final PageCacheConfig config;

	private SharedTier sharedTier;

	private List<VariantEncoder> encoders = List.of(new GzipVariantEncoder());

	private Executor variantExecutor = ForkJoinPool.commonPool();

	private ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

	private LongSupplier clock = System::currentTimeMillis;

	PageCacheBuilder(PageCacheConfig config) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		this.config = config;
	}

	/**
	 * The shared tier, used when {@link SharedTierConfig#enabled()}; the cache closes it when it closes.
	 * @param sharedTier the tier
	 * @return this builder
	 */
	public PageCacheBuilder sharedTier(SharedTier sharedTier) {
		this.sharedTier = sharedTier;
		return this;
	}

	/**
	 * The encoders of compressed variants, most preferred first (default: gzip). For Brotli and Zstandard too:
	 * {@link CompressedVariantEncoder#available()}.
	 * @param encoders the encoders
	 * @return this builder
	 */
	public PageCacheBuilder encoders(List<VariantEncoder> encoders) {
		this.encoders = List.copyOf(encoders);
		return this;
	}

	/**
	 * Where variants of bodies over {@link PageCacheConfig#offLoopVariantSize()} are made (default: the common
	 * fork-join pool).
	 * @param variantExecutor the executor
	 * @return this builder
	 */
	public PageCacheBuilder variantExecutor(Executor variantExecutor) {
		this.variantExecutor = variantExecutor;
		return this;
	}

	/**
	 * Where entries are allocated (default: Netty's pooled allocator, direct buffers).
	 * @param alloc the allocator
	 * @return this builder
	 */
	public PageCacheBuilder allocator(ByteBufAllocator alloc) {
		this.alloc = alloc;
		return this;
	}

	/**
	 * The clock of ages and lifetimes, in milliseconds since the epoch (default: the system's).
	 * @param clock the clock
	 * @return this builder
	 */
	public PageCacheBuilder clock(LongSupplier clock) {
		this.clock = clock;
		return this;
	}

	/**
	 * Build the cache.
	 * @return the cache, to be closed when the server stops
	 * @throws IllegalStateException if the configuration enables the shared tier and no {@link SharedTier} was given
	 */
	public DefaultPageCache build() {
		if (this.config.shared().enabled() && this.sharedTier == null) {
			throw new IllegalStateException("The page cache's shared tier is enabled but no SharedTier was given: "
					+ "configure a Redis connection (spring.data.redis.*) or disable khamsin.page-cache.shared");
		}
		return new DefaultPageCache(this.config, this.sharedTier, this.encoders, this.variantExecutor, this.alloc,
				this.clock);
	}

}
