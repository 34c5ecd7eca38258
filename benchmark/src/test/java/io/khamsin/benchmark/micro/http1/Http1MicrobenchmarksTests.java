package io.khamsin.benchmark.micro.http1;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP/1.1 microbenchmarks measure what they say: each benchmark method, called as JMH calls it, produces the
 * answer or the messages it claims to (seen through the fixture's observer), and each runs under JMH to a
 * positive score.
 */
@Timeout(300)
class Http1MicrobenchmarksTests {

	/** More calls than JMH's first iteration makes, and more than a server codec lets go unanswered. */
	private static final int CALLS = 300;

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void eachMeasuredExchangeIsAnsweredWith200AndTheStatusBody() {
		for (String metrics : new String[] { "on", "off" }) {
			Http1ExchangeBenchmark benchmark = new Http1ExchangeBenchmark();
			benchmark.metrics = metrics;
			benchmark.setUp();
			assertEachAnswer(benchmark, () -> benchmark.exchange(this.blackhole), (answer) -> assertThat(answer)
				.startsWith("HTTP/1.1 200 OK\r\n")
				.contains("\r\nContent-Length: 13\r\n")
				.endsWith("\r\n\r\nHello, World!"));
		}
	}

	@Test
	void eachMeasuredPageIsRenderedAndWithTheCacheOnStoredAsANewKey() {
		for (String cache : new String[] { "off", "miss" }) {
			Http1PageCacheMissBenchmark benchmark = new Http1PageCacheMissBenchmark();
			benchmark.cache = cache;
			benchmark.setUp();
			assertEachAnswer(benchmark, () -> benchmark.exchange(this.blackhole), (answer) -> assertThat(answer)
				.startsWith("HTTP/1.1 200 OK\r\n")
				.contains("\r\nContent-Length: " + Http1PageCacheMissBenchmark.PAGE_SIZE + "\r\n")
				.doesNotContain("\r\nAge: ")
				.endsWith("x".repeat(64)));
			if (cache.equals("miss")) {
				benchmark.setUp();
				for (int i = 0; i < 3; i++) {
					benchmark.exchange(this.blackhole);
				}
				assertThat(benchmark.pageCache.figures().stores()).isEqualTo(3);
				assertThat(benchmark.pageCache.figures().requests(io.khamsin.container.cache.CacheResult.HIT)).isZero();
				benchmark.tearDown();
			}
		}
	}

	@Test
	void eachMeasuredFixedResponseIsTheStatusBodyWithoutTheHandler() {
		for (String metrics : new String[] { "on", "off" }) {
			Http1FixedResponseBenchmark benchmark = new Http1FixedResponseBenchmark();
			benchmark.metrics = metrics;
			benchmark.setUp();
			assertEachAnswer(benchmark, () -> benchmark.exchange(this.blackhole), (answer) -> assertThat(answer)
				.startsWith("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n")
				.endsWith("\r\n\r\nHello, World!"));
		}
	}

	@Test
	void eachMeasuredDecodeYieldsTheWholeRequest() {
		for (String head : new String[] { "plaintext", "browser" }) {
			Http1RequestDecodeBenchmark benchmark = new Http1RequestDecodeBenchmark();
			benchmark.head = head;
			benchmark.setUp();
			List<Object> decoded = new ArrayList<>();
			benchmark.observer = decoded::add;
			try {
				for (int i = 0; i < CALLS; i++) {
					decoded.clear();
					benchmark.decode(this.blackhole);
					assertThat(decoded).as("decode %d of the %s head", i, head).hasSize(2);
					assertThat(decoded.get(0)).isInstanceOfSatisfying(HttpRequest.class, (request) -> {
						assertThat(request.decoderResult().isSuccess()).isTrue();
						assertThat(request.uri())
							.isEqualTo(head.equals("plaintext") ? "/plaintext" : "/page/42?ref=home");
					});
					assertThat(decoded.get(1)).isInstanceOf(LastHttpContent.class);
				}
			}
			finally {
				benchmark.tearDown();
			}
		}
	}

	@Test
	void eachMeasuredEncodeWritesTheStatusResponse() {
		Http1ResponseEncodeBenchmark benchmark = new Http1ResponseEncodeBenchmark();
		benchmark.setUp();
		assertEachAnswer(benchmark, () -> benchmark.encode(this.blackhole), (encoded) -> assertThat(encoded)
			.startsWith("HTTP/1.1 200 OK\r\n")
			.contains("\r\ncontent-length: 13\r\n")
			.endsWith("\r\n\r\nHello, World!"));
	}

	@Test
	void eachBenchmarkRunsUnderJmhToAPositiveScore() throws Exception {
		Collection<RunResult> results = new Runner(new OptionsBuilder()
			.include(Http1ExchangeBenchmark.class.getPackageName() + ".Http1")
			.forks(0)
			.warmupIterations(0)
			.measurementIterations(1)
			.measurementTime(TimeValue.milliseconds(200))
			.build()).run();
		assertThat(results).extracting((result) -> result.getParams().getBenchmark())
			.containsExactlyInAnyOrder(Http1ExchangeBenchmark.class.getName() + ".exchange",
					Http1ExchangeBenchmark.class.getName() + ".exchange",
					Http1FixedResponseBenchmark.class.getName() + ".exchange",
					Http1FixedResponseBenchmark.class.getName() + ".exchange",
					Http1PageCacheMissBenchmark.class.getName() + ".exchange",
					Http1PageCacheMissBenchmark.class.getName() + ".exchange",
					Http1RequestDecodeBenchmark.class.getName() + ".decode",
					Http1RequestDecodeBenchmark.class.getName() + ".decode",
					Http1ResponseEncodeBenchmark.class.getName() + ".encode");
		assertThat(results).allSatisfy((result) -> assertThat(result.getPrimaryResult().getScore())
			.as(result.getParams().getBenchmark() + " " + result.getParams().getParamsKeys())
			.isPositive()
			.isFinite());
	}

	/** Call a measured method again and again, and check the bytes each call wrote, then tear the benchmark down. */
	private static void assertEachAnswer(EmbeddedChannelBenchmark benchmark, Runnable measured,
			Consumer<String> check) {
		StringBuilder written = new StringBuilder();
		benchmark.observer = (message) -> written.append(((ByteBuf) message).toString(StandardCharsets.US_ASCII));
		try {
			for (int i = 0; i < CALLS; i++) {
				written.setLength(0);
				measured.run();
				check.accept(written.toString());
			}
		}
		finally {
			benchmark.tearDown();
		}
	}

}
