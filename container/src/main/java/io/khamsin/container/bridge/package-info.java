/**
 * The exchange stage, one for every protocol, and the bridge to Spring's reactive {@code HttpHandler}: the
 * {@link io.khamsin.container.bridge.ExchangeDispatcher} takes each decoded request head (guards, fixed responses,
 * {@code OPTIONS *}, the clock, the access log) and makes an {@link io.khamsin.container.bridge.HttpExchange} over
 * khamsin's own {@code ServerHttpRequest} and {@code ServerHttpResponse}, with demand-driven request bodies and
 * zero-copy file responses. A protocol joins by implementing {@link io.khamsin.container.bridge.ExchangeChannel}
 * (how its requests are answered), {@link io.khamsin.container.bridge.ConnectionInfo} (what its connection is, most
 * simply as a {@link io.khamsin.container.bridge.ConnectionHandler}) and, if it can leave HTTP after a {@code 101},
 * {@link io.khamsin.container.bridge.ProtocolUpgrade}.
 */
package io.khamsin.container.bridge;
