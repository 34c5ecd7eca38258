/**
 * The load side: an open-loop HTTP/1.1 generator on Netty that sends on a fixed schedule and measures latency from
 * each request's intended send time (coordinated-omission corrected), and the rate search built on it.
 */
package io.khamsin.benchmark.load;
