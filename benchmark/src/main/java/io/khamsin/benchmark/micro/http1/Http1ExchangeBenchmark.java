package io.khamsin.benchmark.micro.http1;

import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;

/**
 * One whole keep-alive exchange through khamsin's HTTP/1.1 pipeline and its bridge, on an {@code EmbeddedChannel}:
 * request decode, the Spring {@code HttpHandler} answering 13 bytes of text/plain, response encode and write.
 * The engine's share of a status request, without sockets; with the engine's figures recorded and not.
 */
public class Http1ExchangeBenchmark extends EmbeddedChannelBenchmark {

	/** Whether the engine records its figures ({@code khamsin.metrics.enabled}): their cost per exchange. */
	@Param({ "on", "off" })
	public String metrics;

	ByteBuf request;

	@Setup
	public void setUp() {
		HttpHandler handler = (request, response) -> {
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(HELLO.length);
			DataBuffer body = response.bufferFactory().wrap(HELLO);
			return response.writeWith(Mono.just(body));
		};
		this.channel = engine(KhamsinServerConfig.defaults(), handler, this.metrics);
		this.request = unreleasable(PLAINTEXT_REQUEST);
	}

	@Benchmark
	public void exchange(Blackhole blackhole) {
		exchange(this.request, blackhole);
	}

}
