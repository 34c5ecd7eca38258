/**
 * HTTP/1.1 (RFC 9112) on Netty's codec, set up on a connection by {@link io.khamsin.container.http1.Http1Initializer}
 * once the transport has chosen HTTP/1.1: keep-alive and pipelining with responses in request order
 * ({@link io.khamsin.container.http1.PipelinedRequests}), {@code Expect: 100-continue}, the connection's timeouts and
 * the size of its heads, fixed responses encoded as HTTP/1.1 bytes, the switch to another protocol after a
 * {@code 101}, and the pool of decoders and encoders each reactor lends its connections only while a message passes
 * ({@link io.khamsin.container.http1.CodecPool}). Each request head goes on to the exchange stage in {@code bridge}.
 */
package io.khamsin.container.http1;
