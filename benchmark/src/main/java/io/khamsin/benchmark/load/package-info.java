/**
 * The load side: an open-loop HTTP/1.1 generator on Netty that sends on a fixed schedule and measures latency from
 * each request's intended send time (coordinated-omission corrected), and the rate search built on it; and the two
 * closed-loop HTTP/3 generators: Netty's QUIC client in a JVM kept up across runs ({@code H3Load},
 * {@code H3LoadProcess}) and copies of ngtcp2's C client ({@code Ngtcp2Load}).
 */
package io.khamsin.benchmark.load;
