/**
 * The figures the engine records: request latency into per-reactor HdrHistogram recorders, connection, request
 * and byte counts per reactor, merged when read. Nothing here allocates, locks or looks up a string per request.
 * Routes are tagged from the start of a request's observation ({@code RouteObservationHandler}), or by a web filter
 * where requests are not observed.
 */
package io.khamsin.container.metrics;
