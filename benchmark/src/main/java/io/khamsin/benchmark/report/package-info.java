/**
 * The report of a run: environment, summary rows with medians and spreads, the Markdown summary with ratios to
 * khamsin, and one gnuplot chart per scenario.
 */
package io.khamsin.benchmark.report;
