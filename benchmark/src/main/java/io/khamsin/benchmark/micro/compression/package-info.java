/**
 * JMH microbenchmarks of response compression: khamsin's encoders against Netty's {@code HttpContentCompressor}
 * (what Reactor Netty runs), for whole bodies of several sizes and for a stream of flushed server-sent events. Run
 * them with {@code benchmark/bench --jmh ContentEncoder}.
 */
package io.khamsin.benchmark.micro.compression;
