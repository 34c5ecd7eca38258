package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding one HTTP/1.1 request head with Netty's {@code HttpServerCodec} on an {@code EmbeddedChannel}: the first
 * cost every request pays. {@code browser} is a head as a browser sends it (about 500 bytes), {@code plaintext} as
 * wrk sends it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Http1RequestDecodeBenchmark {

	@Param({ "plaintext", "browser" })
	public String head;

	private EmbeddedChannel channel;

	private ByteBuf request;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel(new HttpServerCodec());
		String text = this.head.equals("plaintext") ? "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"
				: "GET /page/42?ref=home HTTP/1.1\r\nHost: shop.example.org\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; "
						+ "rv:128.0) Gecko/20100101 Firefox/128.0\r\nAccept: text/html,application/xhtml+xml,application/xml;"
						+ "q=0.9,*/*;q=0.8\r\nAccept-Language: en-GB,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"
						+ "Connection: keep-alive\r\nCookie: session=4f2a9c1e7b; theme=dark\r\nUpgrade-Insecure-Requests: 1\r\n"
						+ "Sec-Fetch-Dest: document\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Site: same-origin\r\n"
						+ "Priority: u=0, i\r\n\r\n";
		this.request = Unpooled.unreleasableBuffer(
				Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.US_ASCII)));
	}

	@Benchmark
	public void decode(Blackhole blackhole) {
		this.channel.writeInbound(this.request.duplicate());
		Object message;
		while ((message = this.channel.readInbound()) != null) {
			blackhole.consume(message);
			ReferenceCountUtil.release(message);
		}
	}

	@TearDown
	public void tearDown() {
		this.channel.finishAndReleaseAll();
	}

}
