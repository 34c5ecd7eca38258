package io.khamsin.container.cache;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The page cache's side of the shared tier: its keys and its format both ways, every call bounded by the tier's
 * timeout, every failure counted, and, after a failure, the tier left alone for the retry interval so that an outage
 * costs requests at most one timeout per interval. Answers complete on the tier's threads or the timer's; the cache
 * hops onto each request's loop.
 */
final class SharedTierClient {

	private static final Logger logger = LoggerFactory.getLogger(SharedTierClient.class);

	private final SharedTier tier;

	private final SharedTierConfig config;

	private final CacheCounters counters;

	private final long timeoutMillis;

	private volatile long downUntilNanos = System.nanoTime();

	private volatile boolean down;

	SharedTierClient(SharedTier tier, SharedTierConfig config, CacheCounters counters) {
		this.tier = tier;
		this.config = config;
		this.counters = counters;
		this.timeoutMillis = config.timeout().toMillis();
	}

	SharedTier tier() {
		return this.tier;
	}

	/** @return whether the tier is asked now: not within the retry interval after a failure */
	boolean available() {
		return !this.down || System.nanoTime() - this.downUntilNanos >= 0;
	}

	CompletableFuture<byte[]> get(String key) {
		return bounded(call(() -> this.tier.get(key)), "read " + key);
	}

	private void put(String key, byte[] value, Duration ttl, Collection<String> tags) {
		if (!available()) {
			return;
		}
		bounded(call(() -> this.tier.put(key, value, ttl, tags)), "write " + key).whenComplete((ok, error) -> {
			if (error == null) {
				this.counters.add(CacheCounters.SHARED_STORES, 1);
			}
		});
	}

	/**
	 * Write an entry just stored, and its page's marker when the page's responses vary, for as long as they may be
	 * served.
	 * @param entry the entry
	 * @param marker the page's marker, or {@code null}
	 * @param servableMillis how long from now the entry may be served, fresh or stale
	 */
	void store(CachedResponse entry, VaryMarker marker, long servableMillis) {
		if (servableMillis <= 0) {
			return;
		}
		byte[] bytes = SharedEntryFormat.encode(entry);
		Duration ttl = Duration.ofMillis(servableMillis);
		if (bytes != null) {
			put(key(entry.page(), entry.variant()), bytes, ttl, entry.tags());
		}
		if (marker != null) {
			put(key(entry.page(), ""), SharedEntryFormat.encode(marker), ttl, entry.tags());
		}
	}

	CompletableFuture<Long> purge(Purge purge) {
		// Purges are not skipped while the tier is down: a purge that could reach it must.
		return bounded(call(() -> this.tier.purge(purge)), "purge " + purge);
	}

	/**
	 * The key of a page's entry in the tier.
	 * @param page the page
	 * @param variant its variant, or the empty string for its {@link VaryMarker}
	 * @return the key
	 */
	static String key(String page, String variant) {
		return page + PageKeys.VARIANT_SEPARATOR + variant;
	}

	/**
	 * What the tier's bytes hold: a miss when there were none, or when they are of another format or unreadable
	 * (each counted).
	 * @param bytes the bytes read, or {@code null}
	 * @param alloc where a response's body goes
	 * @return the entry, or {@code null}
	 */
	Stored decode(byte[] bytes, ByteBufAllocator alloc) {
		if (bytes == null) {
			return null;
		}
		try {
			return SharedEntryFormat.decode(bytes, alloc);
		}
		catch (SharedEntryFormat.VersionMismatchException ex) {
			this.counters.add(CacheCounters.SHARED_FORMAT_MISMATCHES, 1);
			logger.debug("Page cache: {}; taken as a miss", ex.getMessage());
			return null;
		}
		catch (IOException | RuntimeException ex) {
			this.counters.add(CacheCounters.SHARED_ERRORS, 1);
			logger.debug("Page cache: an unreadable shared entry ({}); taken as a miss", ex.toString());
			return null;
		}
	}

	private static <T> CompletableFuture<T> call(java.util.function.Supplier<CompletionStage<T>> call) {
		try {
			return call.get().toCompletableFuture();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private <T> CompletableFuture<T> bounded(CompletableFuture<T> call, String what) {
		CompletableFuture<T> result = new CompletableFuture<>();
		call.whenComplete((value, error) -> {
			if (error == null) {
				this.down = false;
				result.complete(value);
			}
			else {
				result.completeExceptionally(error);
			}
		});
		result.orTimeout(this.timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((value, error) -> {
			if (error != null) {
				failed(what, error);
				call.cancel(false);
			}
		});
		return result;
	}

	private void failed(String what, Throwable error) {
		this.counters.add(CacheCounters.SHARED_ERRORS, 1);
		boolean wasDown = this.down;
		this.downUntilNanos = System.nanoTime() + this.config.retryInterval().toNanos();
		this.down = true;
		if (!wasDown) {
			logger.warn("The page cache's shared tier failed to {} ({}); going on with the local tier, asking it again "
					+ "in {}", what, error.toString(), this.config.retryInterval());
		}
		else {
			logger.debug("The page cache's shared tier failed to {}: {}", what, error.toString());
		}
	}

}
