/**
 * {@code server.forward-headers-strategy} and {@code khamsin.forwarded.*} as the engine's
 * {@link io.khamsin.container.forwarded.ForwardedConfig}: with {@code native}, the engine applies the forwarded
 * headers of trusted proxies itself; with {@code framework}, Spring's {@code ForwardedHeaderTransformer} does, as on
 * every Boot container.
 */
package io.khamsin.boot.forwarded;
