package io.khamsin.benchmark.micro.http1;

import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;
import reactor.core.publisher.Mono;

import io.khamsin.container.FixedResponse;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

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
		KhamsinMetrics figures = KhamsinMetrics.create(MetricsConfig.builder().enabled("on".equals(this.metrics)).build());
		ServerContext context = new ServerContext(config, (request, response) -> Mono.error(new IllegalStateException(
				"the fixed response answers")), new ConnectionRegistry(config.maxConnections()), new GuardCounters(),
				figures, null);
		this.channel = new EmbeddedChannel(engine(context));
		this.request = unreleasable(PLAINTEXT_REQUEST);
	}

	@Benchmark
	public void exchange(Blackhole blackhole) {
		this.channel.writeInbound(this.request.duplicate());
		this.channel.runPendingTasks();
		consumeOutbound(blackhole);
	}

}
