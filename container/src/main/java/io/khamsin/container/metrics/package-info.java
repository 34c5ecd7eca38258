/**
 * The figures the engine records: request latency into per-reactor HdrHistogram recorders, connection, request
 * and byte counts per reactor, merged when read. Nothing here allocates, locks or looks up a string per request.
 */
package io.khamsin.container.metrics;
