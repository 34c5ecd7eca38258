/**
 * JMH microbenchmarks of the page cache's hit path on {@code EmbeddedChannel}: a lookup and the cached response
 * written as bytes. Run them with {@code benchmark/bench --jmh PageCache}.
 */
package io.khamsin.benchmark.micro.cache;
