/**
 * Boot's side of the page cache: {@code khamsin.page-cache.*} read into the engine's
 * {@link io.khamsin.container.cache.PageCacheConfig} (each default equal to the engine's), the
 * {@code PageCache} bean the server looks requests up in, and its shared tier on the application's Redis.
 */
package io.khamsin.boot.cache;
