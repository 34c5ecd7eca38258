package io.khamsin.container.compression;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.DefaultEventLoop;
import io.netty.handler.codec.EncoderException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whole bodies compressed in place when small and off the event loop when large, the result back on the loop,
 * and every buffer released when the coding fails or the loop is gone.
 */
class WholeBodyCompressionTests {

	private static final int THRESHOLD = 64 * 1024;

	private final ResponseCompression compression = new ResponseCompression(
			CompressionConfig.of(true, List.of(), 0, List.of()));

	private final DefaultEventLoop eventLoop = new DefaultEventLoop();

	private final ExecutorService offload = Executors
		.newSingleThreadExecutor((task) -> new Thread(task, "compression-offload"));

	@AfterEach
	void stop() throws InterruptedException {
		this.offload.shutdownNow();
		this.eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
	}

	@Test
	void aSmallBodyIsCompressedInPlace() throws Exception {
		WholeBodyCompression whole = new WholeBodyCompression(THRESHOLD, this.offload);
		byte[] body = Bodies.json(THRESHOLD - 1);
		AtomicReference<String> thread = new AtomicReference<>();
		AtomicReference<byte[]> coded = new AtomicReference<>();
		boolean inPlace = onLoop(() -> whole.compress(encoder(ContentCoding.GZIP), buffer(body), this.eventLoop,
				(result, failure) -> {
					thread.set(Thread.currentThread().getName());
					coded.set(Bodies.drain(result));
				}));
		assertThat(inPlace).isTrue();
		assertThat(thread.get()).isNotEqualTo("compression-offload");
		assertThat(Decoders.decodeWhole(ContentCoding.GZIP, coded.get())).isEqualTo(body);
	}

	@Test
	void aLargeBodyIsCompressedOffTheLoopAndHandedBackOnIt() throws Exception {
		WholeBodyCompression whole = new WholeBodyCompression(THRESHOLD, (task) -> this.offload.execute(() -> {
			assertThat(Thread.currentThread().getName()).isEqualTo("compression-offload");
			task.run();
		}));
		byte[] body = Bodies.json(1024 * 1024);
		AtomicBoolean onLoop = new AtomicBoolean();
		AtomicReference<byte[]> coded = new AtomicReference<>();
		boolean inPlace = onLoop(() -> whole.compress(encoder(ContentCoding.ZSTD), buffer(body), this.eventLoop,
				(result, failure) -> {
					onLoop.set(this.eventLoop.inEventLoop());
					coded.set(Bodies.drain(result));
				}));
		assertThat(inPlace).isFalse();
		await().atMost(Duration.ofSeconds(30)).until(() -> coded.get() != null);
		assertThat(onLoop).isTrue();
		assertThat(Decoders.decodeWhole(ContentCoding.ZSTD, coded.get())).isEqualTo(body);
	}

	@Test
	void aBusyOffloadExecutorLeavesTheWorkInPlace() throws Exception {
		WholeBodyCompression whole = new WholeBodyCompression(THRESHOLD, (task) -> {
			throw new RejectedExecutionException("full");
		});
		byte[] body = Bodies.json(THRESHOLD * 2);
		AtomicReference<byte[]> coded = new AtomicReference<>();
		boolean inPlace = onLoop(() -> whole.compress(encoder(ContentCoding.BR), buffer(body), this.eventLoop,
				(result, failure) -> coded.set(Bodies.drain(result))));
		assertThat(inPlace).isTrue();
		assertThat(Decoders.decodeWhole(ContentCoding.BR, coded.get())).isEqualTo(body);
	}

	@Test
	void aFailedCodingReportsTheFailureAndReleasesTheBody() throws Exception {
		WholeBodyCompression whole = new WholeBodyCompression(THRESHOLD, this.offload);
		for (int size : new int[] { THRESHOLD / 2, THRESHOLD * 4 }) {
			ByteBuf body = buffer(Bodies.random(size));
			AtomicReference<Throwable> failed = new AtomicReference<>();
			onLoop(() -> whole.compress(
					this.compression.newEncoder(ContentCoding.GZIP, new FixedCapacityAllocator()), body,
					this.eventLoop, (result, failure) -> failed.set(failure)));
			await().atMost(Duration.ofSeconds(30)).until(() -> failed.get() != null);
			assertThat(failed.get()).isInstanceOf(EncoderException.class);
			assertThat(body.refCnt()).isZero();
		}
	}

	@Test
	void aResultForAnEventLoopThatIsGoneIsReleased() throws Exception {
		CountDownLatch loopGone = new CountDownLatch(1);
		CountDownLatch compressed = new CountDownLatch(1);
		WholeBodyCompression whole = new WholeBodyCompression(THRESHOLD, (task) -> this.offload.execute(() -> {
			try {
				loopGone.await(30, TimeUnit.SECONDS);
				task.run();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				compressed.countDown();
			}
		}));
		AtomicBoolean called = new AtomicBoolean();
		onLoop(() -> whole.compress(encoder(ContentCoding.GZIP), buffer(Bodies.json(THRESHOLD * 2)), this.eventLoop,
				(result, failure) -> called.set(true)));
		this.eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
		loopGone.countDown();
		assertThat(compressed.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(called).isFalse();
	}

	private ContentEncoder encoder(ContentCoding coding) {
		return this.compression.newEncoder(coding, PooledByteBufAllocator.DEFAULT);
	}

	private <T> T onLoop(java.util.concurrent.Callable<T> action) throws Exception {
		return this.eventLoop.submit(action).get(30, TimeUnit.SECONDS);
	}

	private static ByteBuf buffer(byte[] bytes) {
		return PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
	}

}
