package io.khamsin.container.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The page cache's second tier, shared by a fleet of instances: a store of entries in the cache's own format
 * under string keys, with purge tags and a channel on which purges reach every instance. Every method returns at
 * once and completes later on the store's own threads; the cache bounds each wait with its timeout and counts the
 * failures, so an implementation need not. {@code io.khamsin.container.cache.redis.LettuceSharedTier} is the
 * Redis one.
 */
public interface SharedTier extends AutoCloseable {

	/**
	 * Read an entry.
	 * @param key the key (the store adds its prefix)
	 * @return the stored bytes, or {@code null} when there are none
	 */
	CompletionStage<byte[]> get(String key);

	/**
	 * Write an entry, tagged for purges, that the store drops by itself after its lifetime.
	 * @param key the key
	 * @param value the bytes
	 * @param ttl how long the store keeps it
	 * @param tags its purge tags, possibly none
	 * @return completes once stored
	 */
	CompletionStage<Void> put(String key, byte[] value, Duration ttl, Collection<String> tags);

	/**
	 * Remove the entries a purge names from the store, then publish the purge to every instance (this one
	 * included), in that order, so that an instance that hears it cannot read the purged entries again.
	 * @param purge the purge
	 * @return the entries removed from the store
	 */
	CompletionStage<Long> purge(Purge purge);

	/**
	 * Hear the purges published by every instance.
	 * @param listener called on the store's threads
	 */
	void onPurge(Consumer<Purge> listener);

	/**
	 * Let go of the store's connections.
	 */
	@Override
	void close();

}
