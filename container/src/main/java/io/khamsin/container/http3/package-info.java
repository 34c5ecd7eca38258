/**
 * HTTP/3 (RFC 9114) over QUIC (RFC 9000): the listener of one UDP socket per reactor on the TLS listener's port
 * number, whose packets Netty's {@code QuicCodecDispatcher} routes by connection ID to the socket that owns their
 * connection; the initializer that sets up each QUIC connection's HTTP/3 handler; the stream handler that carries each
 * request stream's exchange to the protocol-neutral exchange stage; the encoder of a whole response's frames (HEADERS
 * with QPACK's static table, DATA) in one write; the retry tokens that validate a new client's
 * address; and the settings of {@code khamsin.http3.*}.
 */
package io.khamsin.container.http3;
