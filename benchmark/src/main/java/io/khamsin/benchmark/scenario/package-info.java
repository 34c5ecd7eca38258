/**
 * The scenarios, one class each, named as in BENCHMARKING.md; each turns running targets into one figure per
 * target and round.
 */
package io.khamsin.benchmark.scenario;
