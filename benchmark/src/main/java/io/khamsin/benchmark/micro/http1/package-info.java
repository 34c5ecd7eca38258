/**
 * JMH microbenchmarks of the HTTP/1.1 hot path on {@code EmbeddedChannel}: request decode, response encode, a whole
 * exchange through khamsin's HTTP/1.1 pipeline and the exchange stage, and a fixed response on the fast path. Run
 * them with {@code benchmark/bench --jmh}.
 */
package io.khamsin.benchmark.micro.http1;
