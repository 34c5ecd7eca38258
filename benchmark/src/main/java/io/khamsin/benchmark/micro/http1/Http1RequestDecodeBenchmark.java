package io.khamsin.benchmark.micro.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding one HTTP/1.1 request head with Netty's {@code HttpRequestDecoder} (the decoder khamsin's codec lends its
 * connections) on an {@code EmbeddedChannel}: the first cost every request pays. {@code browser} is a head as a
 * browser sends it (about 500 bytes), {@code plaintext} as wrk sends it. A decoder alone, not a server codec: the
 * codec counts the requests it has not answered and fails past 128 of them, so a benchmark that only decodes
 * would measure that failure.
 */
public class Http1RequestDecodeBenchmark extends EmbeddedChannelBenchmark {

	@Param({ "plaintext", "browser" })
	public String head;

	private ByteBuf request;

	@Setup
	public void setUp() {
		this.channel = new EmbeddedChannel(new HttpRequestDecoder());
		String text = this.head.equals("plaintext") ? PLAINTEXT_REQUEST
				: "GET /page/42?ref=home HTTP/1.1\r\nHost: shop.example.org\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; "
						+ "rv:128.0) Gecko/20100101 Firefox/128.0\r\nAccept: text/html,application/xhtml+xml,application/xml;"
						+ "q=0.9,*/*;q=0.8\r\nAccept-Language: en-GB,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"
						+ "Connection: keep-alive\r\nCookie: session=4f2a9c1e7b; theme=dark\r\nUpgrade-Insecure-Requests: 1\r\n"
						+ "Sec-Fetch-Dest: document\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Site: same-origin\r\n"
						+ "Priority: u=0, i\r\n\r\n";
		this.request = unreleasable(text);
	}

	@Benchmark
	public void decode(Blackhole blackhole) {
		this.channel.writeInbound(this.request.duplicate());
		consumeInbound(blackhole);
	}

}
