/**
 * What the instrument reads from Linux and the JDK tools about a process: CPU time from /proc, memory (RSS, PSS),
 * and the live heap from a class histogram.
 */
package io.khamsin.benchmark.os;
