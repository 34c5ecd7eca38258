package io.khamsin.benchmark.micro.cache;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import io.khamsin.container.cache.CacheResult;

import static org.assertj.core.api.Assertions.assertThat;

class PageCacheMicrobenchmarksTests {

	private static byte[] written(PageCacheHitBenchmark benchmark) {
		ByteBuf all = Unpooled.buffer();
		Object message;
		while ((message = benchmark.channel.readOutbound()) != null) {
			all.writeBytes((ByteBuf) message);
			((ByteBuf) message).release();
		}
		return ByteBufUtil.getBytes(all);
	}

	private static byte[] body(byte[] response) {
		String text = new String(response, StandardCharsets.ISO_8859_1);
		int end = text.indexOf("\r\n\r\n") + 4;
		byte[] body = new byte[response.length - end];
		System.arraycopy(response, end, body, 0, body.length);
		return body;
	}

	@Test
	void theHitBenchmarkWritesWholeCachedResponsesWithoutLeaking() throws IOException {
		for (String size : new String[] { "small", "page" }) {
			for (String encoding : new String[] { "identity", "gzip" }) {
				PageCacheHitBenchmark benchmark = new PageCacheHitBenchmark();
				benchmark.body = size;
				benchmark.encoding = encoding;
				benchmark.setUp();
				try {
					for (int i = 0; i < 3; i++) {
						benchmark.writeHit();
						byte[] response = written(benchmark);
						String head = new String(response, StandardCharsets.ISO_8859_1);
						assertThat(head).startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nAge: ", "\r\nDate: ");
						byte[] body = body(response);
						if (encoding.equals("gzip") && size.equals("page")) {
							assertThat(head).contains("Content-Encoding: gzip\r\n");
							try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
								body = in.readAllBytes();
							}
						}
						String expected = size.equals("small") ? "Hello, World!" : PageCacheHitBenchmark.page(50 * 1024);
						assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo(expected);
					}
					assertThat(benchmark.cache.figures().requests(CacheResult.HIT)).isEqualTo(4);
				}
				finally {
					benchmark.tearDown();
				}
			}
		}
	}

	@Test
	void theCaptureBenchmarkStoresEveryMissWithoutLeaking() {
		for (int parts : new int[] { 1, 8 }) {
			TicketCaptureBenchmark benchmark = new TicketCaptureBenchmark();
			benchmark.parts = parts;
			benchmark.setUp();
			try {
				for (int i = 0; i < 3; i++) {
					benchmark.capture();
				}
				assertThat(benchmark.cache.figures().stores()).isEqualTo(3);
				assertThat(benchmark.cache.figures().entries()).isEqualTo(1);
				assertThat(benchmark.cache.figures().requests(CacheResult.MISS)).isEqualTo(3);
			}
			finally {
				benchmark.tearDown();
			}
		}
	}

}
