/**
 * The benchmark instrument: {@link io.khamsin.benchmark.Bench} runs a campaign of scenarios against targets that
 * each answer the same routes, interleaved per round on a pinned server core, and writes the report. Rules and
 * scenario names come from BENCHMARKING.md.
 */
package io.khamsin.benchmark;
