/**
 * The page cache's shared tier on Redis, through Lettuce's non-blocking API: entries under one key prefix, tag
 * sets, and purges published over pub/sub so that every instance drops them.
 */
package io.khamsin.container.cache.redis;
