/**
 * HTTP/1.1 (RFC 9112) on Netty's codec: the pipeline of a connection, keep-alive and pipelining with responses
 * in request order, {@code Expect: 100-continue}, and the per-connection guards (timeouts and size limits).
 */
package io.khamsin.container.http1;
