/**
 * What the instrument reads from Linux and the JDK tools about a process: CPU time from /proc (the scheduler's run
 * time per thread, and clock ticks), memory (RSS, PSS), the live heap from a class histogram, and a JVM's direct
 * buffer memory and bytes allocated per thread through the Attach API; and the spinner that keeps the server core
 * awake, paused while CPU time is counted.
 */
package io.khamsin.benchmark.os;
