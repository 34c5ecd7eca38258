/**
 * The origin page cache: a stage in front of the Spring bridge that answers cacheable {@code GET} and
 * {@code HEAD} requests from pooled direct memory with pre-encoded heads, single-flights concurrent misses and
 * stores what the application renders on its way out (RFC 9111). Eviction and admission are Caffeine's W-TinyLFU
 * weighed in bytes; a fleet tier sits behind {@link io.khamsin.container.cache.SharedTier}.
 */
package io.khamsin.container.cache;
