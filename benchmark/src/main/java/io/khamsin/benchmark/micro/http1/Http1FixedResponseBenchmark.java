package io.khamsin.benchmark.micro.http1;

import java.util.Map;

import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.fixed.FixedResponse;

/**
 * One keep-alive status request answered by a fixed response, on an {@code EmbeddedChannel}: request decode, the
 * exchange stage's lookup and clock, and the pre-encoded bytes written, without the Spring handler. The engine's
 * share of the fast path; with its figures recorded (a timed write promise per request) and not.
 */
public class Http1FixedResponseBenchmark extends EmbeddedChannelBenchmark {

	/** Whether the engine records its figures ({@code khamsin.metrics.enabled}): their cost per request. */
	@Param({ "on", "off" })
	public String metrics;

	ByteBuf request;

	@Setup
	public void setUp() {
		KhamsinServerConfig config = KhamsinServerConfig.builder()
			.fixedResponse(new FixedResponse("/plaintext", 200, "text/plain", HELLO, Map.of()))
			.build();
		this.channel = engine(config,
				(request, response) -> Mono.error(new IllegalStateException("the fixed response answers")),
				this.metrics);
		this.request = unreleasable(PLAINTEXT_REQUEST);
	}

	@Benchmark
	public void exchange(Blackhole blackhole) {
		exchange(this.request, blackhole);
	}

}
