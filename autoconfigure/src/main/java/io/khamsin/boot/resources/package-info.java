/**
 * Static resources: zstd beside Boot's precompressed Brotli and gzip siblings, through Spring's own
 * {@code EncodedResourceResolver}.
 */
package io.khamsin.boot.resources;
