/**
 * The bridge to Spring's reactive {@code HttpHandler}: khamsin's own {@code ServerHttpRequest} and
 * {@code ServerHttpResponse} over Netty's HTTP messages, with demand-driven request bodies, response bodies written
 * and compressed as the protocol frames them, file responses ({@code FileBodies}: by the transport's file region, or
 * read whole on the event loop when small, or in chunks off it by {@code FileChunks}, as the egress choice says), and
 * the request's route for the figures.
 * It sees the protocol that carries a request only as a {@link io.khamsin.container.bridge.ProtocolChannel} and its
 * connection as a {@link io.khamsin.container.bridge.ConnectionInfo}; a protocol that can leave HTTP after a
 * {@code 101} offers a {@link io.khamsin.container.bridge.ProtocolUpgrade}.
 */
package io.khamsin.container.bridge;
