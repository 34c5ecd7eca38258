/**
 * Static resources: zstd beside Boot's precompressed Brotli and gzip siblings, through Spring's own
 * {@code EncodedResourceResolver}; and {@code If-Range}, which Spring's resource handling does not read, for every
 * handler that answers ranges ({@link io.khamsin.boot.resources.IfRangeWebFilter}); and one {@code stat} per request
 * for the files Spring's resource handling serves from the file system, where it makes four system calls
 * ({@link io.khamsin.boot.resources.StatOnceResourceResolver}).
 */
package io.khamsin.boot.resources;
