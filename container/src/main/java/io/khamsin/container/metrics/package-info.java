/**
 * The figures the engine records: request latency into per-reactor HdrHistogram recorders, connection, request
 * and byte counts per reactor, its open HTTP/3 connections and request streams
 * ({@link io.khamsin.container.metrics.QuicCounters}), TLS handshakes by outcome
 * ({@link io.khamsin.container.metrics.TlsFigures}), merged
 * when read, and the guard and egress counters it holds for the server. Connections are counted by the transport and requests by the
 * exchange stage, each request with a clock of its own, so that requests may end in any order, on a connection or
 * on one of its streams. Nothing here allocates, locks or looks up a string per request. The route a request is
 * tagged with is the bridge's to find ({@link io.khamsin.container.metrics.Route} holds the tags).
 */
package io.khamsin.container.metrics;
