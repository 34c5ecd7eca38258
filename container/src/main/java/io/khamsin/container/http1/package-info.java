/**
 * HTTP/1.1 (RFC 9112) on Netty's codec, set up on a connection by {@link io.khamsin.container.http1.Http1Initializer}
 * once the transport has chosen HTTP/1.1. The connection's state machine is one handler made of parts: its timeouts,
 * the queue of pipelined requests (answered in request order), the switch to another protocol after a {@code 101},
 * and the answers it writes itself as bytes (refusals, fixed responses, page-cache hits). Each reactor lends its
 * connections a decoder and an encoder only while a message passes ({@link io.khamsin.container.http1.CodecPool}).
 * Each request head goes on to the exchange stage.
 */
package io.khamsin.container.http1;
