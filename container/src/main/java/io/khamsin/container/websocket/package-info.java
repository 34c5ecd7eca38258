/**
 * WebSocket (RFC 6455) for WebFlux on khamsin: the {@code RequestUpgradeStrategy} that answers the handshake and
 * switches the connection to WebSocket frames through its protocol's {@code ProtocolUpgrade}, and the session that
 * carries a {@code WebSocketHandler}'s messages with backpressure in both directions and releases what the handler
 * never read.
 */
package io.khamsin.container.websocket;
