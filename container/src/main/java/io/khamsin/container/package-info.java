/**
 * The public entry point of the khamsin engine: {@link io.khamsin.container.KhamsinServer} serves any Spring
 * {@link org.springframework.http.server.reactive.HttpHandler} on Netty, configured by one immutable
 * {@link io.khamsin.container.KhamsinServerConfig}, and is where the protocols of its listeners are chosen.
 * Nothing here depends on Spring Boot.
 */
package io.khamsin.container;
