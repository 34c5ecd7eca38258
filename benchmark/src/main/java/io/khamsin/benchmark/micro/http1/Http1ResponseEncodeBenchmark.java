package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
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

/**
 * Encoding the status response (200, text/plain, 13 bytes) with Netty's {@code HttpResponseEncoder} on an
 * {@code EmbeddedChannel}: the cost khamsin's fixed-response fast path avoids by writing pre-encoded bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Http1ResponseEncodeBenchmark {

	private EmbeddedChannel channel;

	private ByteBuf body;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel(new HttpResponseEncoder());
		this.body = Unpooled.unreleasableBuffer(
				Unpooled.wrappedBuffer("Hello, World!".getBytes(StandardCharsets.US_ASCII)));
	}

	@Benchmark
	public void encode(Blackhole blackhole) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
				this.body.duplicate());
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
			.setInt(HttpHeaderNames.CONTENT_LENGTH, 13);
		this.channel.writeOutbound(response);
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
