/**
 * Response compression as Spring Boot's {@code server.compression.*} defines it: the per-response decision
 * ({@link io.khamsin.container.compression.ResponseCompression}), the negotiation of a content coding from the
 * client's {@code Accept-Encoding} (RFC 9110 section 12.5.3), and streaming gzip, br and zstd encoders
 * ({@link io.khamsin.container.compression.ContentEncoder}) that turn body buffers into compressed buffers, a large
 * single buffer off the event loop ({@link io.khamsin.container.compression.WholeBodyCompression}).
 * <p>
 * Nothing here is tied to a protocol: the decision reads Netty {@code HttpHeaders}, which HTTP/1.1, HTTP/2 and
 * HTTP/3 requests all reach the exchange with, and an encoder only sees buffers, so the exchange stage, the page
 * cache and every protocol share it.
 */
package io.khamsin.container.compression;
