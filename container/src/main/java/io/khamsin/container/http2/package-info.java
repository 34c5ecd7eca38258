/**
 * HTTP/2 (RFC 9113): the initializer that sets up a connection's codec, stream multiplexer and connection handler,
 * the stream handler that carries each stream's exchange to the protocol-neutral exchange stage, and the abuse limits
 * of a connection. On a plain listener, the selector that tells the HTTP/2 preface and {@code Upgrade: h2c} from
 * HTTP/1.1 by a connection's first bytes.
 */
package io.khamsin.container.http2;
