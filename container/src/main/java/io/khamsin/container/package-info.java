/**
 * The public entry point of the khamsin engine: {@link io.khamsin.container.KhamsinServer} serves any Spring
 * {@link org.springframework.http.server.reactive.HttpHandler} on Netty, configured by one immutable
 * {@link io.khamsin.container.KhamsinServerConfig}, and is where the protocols of its listeners are chosen.
 * Nothing here depends on Spring Boot.
 * <p>
 * The engine's packages form one order, each importing only packages to its right (a comma joins packages of one
 * rank, which import neither each other):
 * <p>
 * Package order: (root) -> http1, http2, http3, websocket -> exchange -> bridge, cache.redis -> cache -> compression,
 * fixed, forwarded -> tls -> transport -> engine -> metrics, accesslog -> egress, guard -> ktls
 * <p>
 * That is: the server and its configuration; the protocols; the exchange stage every protocol hands its requests
 * to; what it runs them through (the bridge to Spring, the page cache and its tiers, compression, fixed responses,
 * forwarded headers); then TLS, the transport and the engine every connection shares; and the figures, the access
 * log, the egress choice and the guards everything records into; and, last, kernel TLS's key arithmetic, which
 * imports nothing of khamsin's. A type two packages need lives in the lower one;
 * a callback up is an interface the lower package owns. {@code PackageOrderTests} holds the code to this line.
 */
package io.khamsin.container;
