/**
 * What the instrument reads from Linux and the JDK tools about a process: CPU time from /proc, memory (RSS, PSS),
 * the live heap from a class histogram, and the direct buffer memory of a JVM through the Attach API.
 */
package io.khamsin.benchmark.os;
