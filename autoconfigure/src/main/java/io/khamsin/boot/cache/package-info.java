/**
 * Boot's side of the page cache: {@code khamsin.page-cache.*} read into the engine's
 * {@link io.khamsin.container.cache.PageCacheConfig}, each default equal to the engine's.
 */
package io.khamsin.boot.cache;
