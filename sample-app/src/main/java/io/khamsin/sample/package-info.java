/**
 * A Spring Boot WebFlux application that runs on khamsin. Its routes cover what a WebFlux user relies on (plain
 * and JSON bodies, uploads, static files, server-sent events, WebSocket, rendered pages) for the integration suite
 * and the benchmarks.
 */
package io.khamsin.sample;
