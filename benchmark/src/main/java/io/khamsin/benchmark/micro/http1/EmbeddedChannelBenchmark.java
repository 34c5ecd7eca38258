package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.http1.Http1Initializer;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.transport.ConnectionInitializer;
import io.khamsin.container.transport.ProtocolSelector;

/**
 * The fixture every HTTP/1.1 microbenchmark shares: one {@code EmbeddedChannel} per thread, the status request and
 * body, the JMH settings, and the draining of what the channel produced. A subclass builds its channel in its own
 * {@code @Setup} and measures one step of the request path in its {@code @Benchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class EmbeddedChannelBenchmark {

	/** The status body: 13 bytes of text/plain. */
	static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

	/** The status request as wrk sends it. */
	static final String PLAINTEXT_REQUEST = "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";

	EmbeddedChannel channel;

	/** Sees each message the benchmark consumes, before it is released: a test's view of what was measured. */
	Consumer<Object> observer;

	/** @return {@code bytes} in a buffer that a benchmark can hand out as duplicates forever */
	static ByteBuf unreleasable(byte[] bytes) {
		return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(bytes));
	}

	/** @return {@code text} (US-ASCII) in a buffer that a benchmark can hand out as duplicates forever */
	static ByteBuf unreleasable(String text) {
		return unreleasable(text.getBytes(StandardCharsets.US_ASCII));
	}

	/**
	 * An embedded channel with the engine's pipeline for a connection, as a server sets it up: admission and
	 * figures, then HTTP/1.1 and the exchange stage.
	 * @param config the configuration
	 * @param handler the Spring handler
	 * @param metrics {@code on} to record the engine's figures
	 * @return the channel
	 */
	static EmbeddedChannel engine(KhamsinServerConfig config, HttpHandler handler, String metrics) {
		KhamsinMetrics figures = KhamsinMetrics.create(MetricsConfig.builder().enabled("on".equals(metrics)).build());
		ServerContext context = new ServerContext(config.httpSettings(), handler,
				new ConnectionRegistry(config.maxConnections()), new GuardCounters(), figures, null);
		ExchangeDispatcher exchanges = new ExchangeDispatcher(context, config.fixedResponses(), config.compression(),
				config.forwarded(), config.pageCache(), config.overload());
		ProtocolSelector http1 = ProtocolSelector.cleartext(new Http1Initializer(context, exchanges));
		return new EmbeddedChannel(new ConnectionInitializer(context, http1));
	}

	/** Answer one request, as a keep-alive client sends it, and consume the answer. */
	void exchange(ByteBuf request, Blackhole blackhole) {
		this.channel.writeInbound(request.duplicate());
		this.channel.runPendingTasks();
		consumeOutbound(blackhole);
	}

	/** Consume and release every message the channel wrote. */
	void consumeOutbound(Blackhole blackhole) {
		consume(this.channel::readOutbound, blackhole);
	}

	/** Consume and release every message the channel's pipeline passed inbound to its end. */
	void consumeInbound(Blackhole blackhole) {
		consume(this.channel::readInbound, blackhole);
	}

	private void consume(Supplier<Object> messages, Blackhole blackhole) {
		Object message;
		while ((message = messages.get()) != null) {
			if (this.observer != null) {
				this.observer.accept(message);
			}
			blackhole.consume(message);
			ReferenceCountUtil.release(message);
		}
	}

	@TearDown
	public void tearDown() {
		this.channel.finishAndReleaseAll();
	}

}
