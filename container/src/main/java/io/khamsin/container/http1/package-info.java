/**
 * HTTP/1.1 (RFC 9112) on Netty's codec: the pipeline of a connection, keep-alive and pipelining with responses
 * in request order ({@link io.khamsin.container.http1.PipelinedRequests}), {@code Expect: 100-continue}, the
 * per-connection guards (timeouts and size limits), fixed responses, and the pool of decoders and encoders each
 * reactor lends its connections only while a message passes ({@link io.khamsin.container.http1.CodecPool}).
 */
package io.khamsin.container.http1;
