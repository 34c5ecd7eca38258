/**
 * The origin page cache (RFC 9111): lookups of cacheable {@code GET} and {@code HEAD} requests answered from pooled
 * direct memory, concurrent misses single-flighted, and what the application renders stored through a
 * {@link io.khamsin.container.cache.Ticket}. Eviction and admission are Caffeine's W-TinyLFU weighed in bytes; a
 * fleet tier sits behind {@link io.khamsin.container.cache.SharedTier}. It knows no protocol: the head of an answer
 * is a {@link io.khamsin.container.cache.CachedHead}, which each protocol encodes once in its own form
 * ({@link io.khamsin.container.cache.HeadEncoding}), and the exchange stage drives it.
 */
package io.khamsin.container.cache;
