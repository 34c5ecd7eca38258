package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

import static org.assertj.core.api.Assertions.assertThat;

class Http1MicrobenchmarksTests {

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void theExchangeBenchmarkMeasuresAWholeAnsweredRequest() {
		Http1ExchangeBenchmark benchmark = new Http1ExchangeBenchmark();
		benchmark.setUp();
		try {
			StringBuilder answers = new StringBuilder();
			for (int i = 0; i < 3; i++) {
				benchmark.channel.writeInbound(benchmark.request.duplicate());
				benchmark.channel.runPendingTasks();
				Object message;
				while ((message = benchmark.channel.readOutbound()) != null) {
					ByteBuf bytes = (ByteBuf) message;
					answers.append(bytes.toString(StandardCharsets.US_ASCII));
					bytes.release();
				}
			}
			assertThat(answers.toString().split("HTTP/1.1 200", -1)).hasSize(4);
			assertThat(answers.toString()).contains("Hello, World!");
		}
		finally {
			benchmark.tearDown();
		}
	}

	@Test
	void theDecodeAndEncodeBenchmarksRunWithoutLeaking() {
		for (String head : new String[] { "plaintext", "browser" }) {
			Http1RequestDecodeBenchmark decode = new Http1RequestDecodeBenchmark();
			decode.head = head;
			decode.setUp();
			decode.decode(this.blackhole);
			decode.tearDown();
		}
		Http1ResponseEncodeBenchmark encode = new Http1ResponseEncodeBenchmark();
		encode.setUp();
		encode.encode(this.blackhole);
		encode.tearDown();
	}

}
