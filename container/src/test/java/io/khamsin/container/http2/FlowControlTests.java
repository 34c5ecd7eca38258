package io.khamsin.container.http2;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.H2cClient;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Backpressure both ways through HTTP/2 flow control, on one connection: a response its client does not read holds
 * up neither the other streams nor more than a window of the application's output, and a request body the
 * application does not read is taken no further than the stream's window, however much the client has to send.
 */
@Timeout(120)
class FlowControlTests {

	private static final int PART = 8 * 1024;

	private static final int PARTS = 2_000;

	private final AtomicInteger partsProduced = new AtomicInteger();

	private final CountDownLatch readBody = new CountDownLatch(1);

	private final AtomicLong bodyRead = new AtomicLong();

	private KhamsinServer server;

	@BeforeEach
	void start() {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.readBody.countDown();
		this.server.stop();
	}

	private HttpHandler handler() {
		HttpHandler routes = new TestRoutes(null).handler();
		byte[] part = new byte[PART];
		return (request, response) -> switch (request.getPath().value()) {
			case "/big" -> response.writeWith(Flux.range(0, PARTS).map((i) -> {
				this.partsProduced.incrementAndGet();
				return response.bufferFactory().wrap(part);
			}));
			case "/held" -> request.getBody()
				.publishOn(Schedulers.boundedElastic(), 1)
				.doOnNext((buffer) -> {
					this.bodyRead.addAndGet(buffer.readableByteCount());
					DataBufferUtils.release(buffer);
					awaitRelease();
				})
				.then(Mono.defer(() -> response.writeWith(
						Mono.just(response.bufferFactory().wrap(Long.toString(this.bodyRead.get()).getBytes())))));
			default -> routes.handle(request, response);
		};
	}

	private void awaitRelease() {
		try {
			this.readBody.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void aStreamWhoseResponseIsNotReadHoldsUpNeitherTheOthersNorMoreThanAWindowOfOutput() throws Exception {
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream slow = client.open(false);
			slow.sendHeaders("GET", "/big", true);
			await().atMost(Duration.ofSeconds(30)).until(() -> this.partsProduced.get() > 0);
			List<H2cClient.Stream> fast = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				fast.add(client.send("GET", "/plaintext", null));
			}
			for (H2cClient.Stream stream : fast) {
				H2cClient.Response response = stream.response().get(30, TimeUnit.SECONDS);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.text()).isEqualTo("Hello, World!");
			}
			// While the client reads none of it, the server goes no further than the stream's window and the
			// stream channel's water mark (64 KiB each): a few dozen parts of the 2,000.
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
				.until(() -> this.partsProduced.get() < 64);
			slow.read();
			H2cClient.Response response = slow.response().get(60, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).hasSize(PART * PARTS);
		}
	}

	@Test
	void aBodyTheApplicationDoesNotReadIsTakenNoFurtherThanTheWindow() throws Exception {
		long size = 16L * 1024 * 1024;
		AtomicLong written = new AtomicLong();
		byte[] chunk = new byte[16 * 1024];
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream upload = client.open(true);
			upload.sendHeaders("POST", "/held", false);
			AtomicLong queued = new AtomicLong();
			upload.sendBody((stream) -> {
				boolean last = queued.addAndGet(chunk.length) >= size;
				stream.channel().writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2DataFrame(
						Unpooled.wrappedBuffer(chunk), last)).addListener((future) -> {
							if (future.isSuccess()) {
								written.addAndGet(chunk.length);
							}
						});
				if (last) {
					stream.bodySent();
				}
			});
			await().atMost(Duration.ofSeconds(30)).until(() -> this.bodyRead.get() > 0);
			await().atMost(Duration.ofSeconds(30)).until(() -> !upload.channel().isWritable());
			// The application holds its first part: the client may send the stream's window (64 KiB) and little more.
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
				.until(() -> written.get() < 256 * 1024);
			assertThat(this.bodyRead.get()).isLessThan(256 * 1024);
			this.readBody.countDown();
			H2cClient.Response response = upload.response().get(60, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo(Long.toString(size));
		}
	}

	@Test
	void aLargeUploadToASlowReaderStaysWithinABoundedWindowOfMemory() throws Exception {
		long size = 256L * 1024 * 1024;
		long window = 32L * 1024 * 1024;
		byte[] chunk = new byte[16 * 1024];
		for (int i = 0; i < chunk.length; i++) {
			chunk[i] = (byte) (i * 31);
		}
		java.security.MessageDigest expected = TestRoutes.sha256();
		AtomicBoolean uploading = new AtomicBoolean(true);
		AtomicLong peakDirect = new AtomicLong();
		Thread sampler = new Thread(() -> {
			while (uploading.get()) {
				peakDirect.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		sampler.start();
		try (H2cClient client = H2cClient.connect(this.server.port())) {
			H2cClient.Stream upload = client.open(true);
			upload.sendHeaders("POST", "/slow-reader", false);
			AtomicLong queued = new AtomicLong();
			upload.sendBody((stream) -> {
				boolean last = queued.addAndGet(chunk.length) >= size;
				expected.update(chunk);
				stream.sendData(Unpooled.wrappedBuffer(chunk), last);
				if (last) {
					stream.bodySent();
				}
			});
			H2cClient.Response response = upload.response().get(110, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo(size + " " + HexFormat.of().formatHex(expected.digest()));
		}
		finally {
			uploading.set(false);
			sampler.join();
		}
		assertThat(peakDirect.get()).as("peak pooled direct memory").isLessThan(window);
	}

}
