/**
 * The bridge from a protocol's request messages to Spring's reactive {@code HttpHandler}: khamsin's own
 * {@code ServerHttpRequest} and {@code ServerHttpResponse} over Netty, with demand-driven request bodies and
 * zero-copy file responses. Protocol handlers drive an {@link io.khamsin.container.bridge.HttpExchange} through
 * the {@link io.khamsin.container.bridge.ExchangeChannel} they implement.
 */
package io.khamsin.container.bridge;
