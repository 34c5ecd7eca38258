package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.http1.Http1ChannelInitializer;

/**
 * One whole keep-alive exchange through khamsin's HTTP/1.1 pipeline and its bridge, on an {@code EmbeddedChannel}:
 * request decode, the Spring {@code HttpHandler} answering 13 bytes of text/plain, response encode and write.
 * The engine's share of a status request, without sockets.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Http1ExchangeBenchmark {

	private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

	EmbeddedChannel channel;

	ByteBuf request;

	@Setup
	public void setUp() {
		HttpHandler handler = (request, response) -> {
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(HELLO.length);
			DataBuffer body = response.bufferFactory().wrap(HELLO);
			return response.writeWith(Mono.just(body));
		};
		KhamsinServerConfig config = KhamsinServerConfig.defaults();
		ServerContext context = new ServerContext(config, handler, new ConnectionRegistry(config.maxConnections()),
				new GuardCounters());
		this.channel = new EmbeddedChannel(new Http1ChannelInitializer(context));
		this.request = Unpooled.unreleasableBuffer(Unpooled
			.wrappedBuffer("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
	}

	@Benchmark
	public void exchange(Blackhole blackhole) {
		this.channel.writeInbound(this.request.duplicate());
		this.channel.runPendingTasks();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			blackhole.consume(message);
			ReferenceCountUtil.release(message);
		}
	}

	@TearDown
	public void tearDown() {
		this.channel.finishAndReleaseAll();
	}

}
