package io.khamsin.benchmark.micro.compression;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class ContentEncoderBenchmarkTests {

	@ParameterizedTest
	@ValueSource(strings = { "gzip", "br", "zstd" })
	void bothSidesCompressTheSameBodiesAndEventsIsNoWorseForKhamsin(String coding) {
		ContentEncoderBenchmark benchmark = new ContentEncoderBenchmark();
		benchmark.coding = coding;
		benchmark.size = 131072;
		benchmark.setUp();
		try {
			run(benchmark, coding);
		}
		finally {
			benchmark.tearDown();
		}
	}

	private static void run(ContentEncoderBenchmark benchmark, String coding) {
		long khamsin = benchmark.wholeKhamsin();
		long netty = benchmark.wholeNetty();
		long khamsinEvents = benchmark.eventsKhamsin();
		long nettyEvents = benchmark.eventsNetty();
		System.out.printf("%s: whole 131072 -> khamsin %d, netty %d; %d events -> khamsin %d, netty %d%n", coding,
				khamsin, netty, ContentEncoderBenchmark.EVENTS, khamsinEvents, nettyEvents);
		assertThat(khamsin).isBetween(1000L, 131072L / 3);
		assertThat(netty).isBetween(1000L, 131072L / 3);
		assertThat(khamsinEvents).isLessThanOrEqualTo(nettyEvents);
	}

}
