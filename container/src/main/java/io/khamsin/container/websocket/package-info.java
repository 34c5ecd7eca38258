/**
 * WebSocket (RFC 6455) for WebFlux on khamsin: the {@code RequestUpgradeStrategy} that switches an HTTP/1.1
 * connection to WebSocket frames, and the session that carries a {@code WebSocketHandler}'s messages with
 * backpressure in both directions.
 */
package io.khamsin.container.websocket;
