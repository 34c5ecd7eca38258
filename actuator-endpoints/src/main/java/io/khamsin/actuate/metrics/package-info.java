/**
 * Micrometer meters over khamsin's figures: the {@code khamsin.requests} timer fed from the engine's latency
 * histograms off the event loops, and gauges and counters that read the engine's counts on scrape.
 */
package io.khamsin.actuate.metrics;
