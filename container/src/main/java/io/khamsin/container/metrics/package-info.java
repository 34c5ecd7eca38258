/**
 * The figures the engine records: request latency into per-reactor HdrHistogram recorders, connection, request
 * and byte counts per reactor, merged when read. Connections are counted by the transport and requests by the
 * exchange stage, each request with a clock of its own, so that requests may end in any order, on a connection or
 * on one of its streams. Nothing here allocates, locks or looks up a string per request. Routes are tagged from the
 * start of a request's observation ({@code RouteObservationHandler}), or by a web filter where requests are not
 * observed.
 */
package io.khamsin.container.metrics;
