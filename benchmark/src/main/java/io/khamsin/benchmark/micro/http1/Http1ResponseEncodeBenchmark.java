package io.khamsin.benchmark.micro.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encoding the status response (200, text/plain, 13 bytes) with Netty's {@code HttpResponseEncoder} on an
 * {@code EmbeddedChannel}: the cost khamsin's fixed-response fast path avoids by writing pre-encoded bytes.
 */
public class Http1ResponseEncodeBenchmark extends EmbeddedChannelBenchmark {

	private ByteBuf body;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel(new HttpResponseEncoder());
		this.body = unreleasable(HELLO);
	}

	@Benchmark
	public void encode(Blackhole blackhole) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
				this.body.duplicate());
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
			.setInt(HttpHeaderNames.CONTENT_LENGTH, HELLO.length);
		this.channel.writeOutbound(response);
		consumeOutbound(blackhole);
	}

}
