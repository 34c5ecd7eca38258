package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

class KeyFloodTests {

	private static final long LIMIT = 1024 * 1024;

	private final CacheFixture fixture = new CacheFixture();

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	@Test
	void aFloodOfKeysKeepsTheCacheWithinItsByteLimitWhileHitsAreWrittenFromEvictedEntries() throws Exception {
		this.cache = this.fixture.builder(config().maxSize(LIMIT).maxObjectSize(64 * 1024).build()).build();
		String body = "x".repeat(4096);
		this.fixture.render(this.fixture.lookup(this.cache, get("/hot")), 200, body, "Cache-Control", "max-age=600");
		AtomicBoolean flooding = new AtomicBoolean(true);
		AtomicLong written = new AtomicLong();
		AtomicLong heldHits = new AtomicLong();
		// Readers hold a hit's body across evictions, as a write to a slow socket does, then read and release it.
		List<CompletableFuture<Void>> readers = new ArrayList<>();
		for (int r = 0; r < 2; r++) {
			readers.add(CompletableFuture.runAsync(() -> {
				for (long n = 0; flooding.get(); n++) {
					Lookup lookup = this.fixture.lookup(this.cache, get("/page/" + Math.max(0, written.get() - n % 40)));
					if (lookup instanceof Lookup.Hit hit) {
						ByteBuf held = hit.body();
						Thread.yield();
						assertThat(held.readableBytes()).isEqualTo(4096);
						assertThat(held.getByte(held.readerIndex() + 4095)).isEqualTo((byte) 'x');
						hit.release();
						heldHits.incrementAndGet();
					}
					else {
						CacheFixture.release(lookup);
					}
				}
			}));
		}
		EventLoop loop = this.fixture.loop();
		for (int i = 0; i < 5_000; i++) {
			Lookup lookup = this.fixture.lookup(this.cache, get("/page/" + i), loop);
			if (lookup instanceof Lookup.Miss) {
				this.fixture.render(lookup, 200, body, "Cache-Control", "max-age=600");
			}
			else {
				CacheFixture.release(lookup);
			}
			written.set(i);
			if (i % 500 == 0) {
				this.cache.cleanUp();
				assertThat(this.cache.figures().bytes()).isLessThanOrEqualTo(LIMIT);
			}
		}
		flooding.set(false);
		CompletableFuture.allOf(readers.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
		this.cache.cleanUp();
		PageCacheFigures figures = this.cache.figures();
		assertThat(figures.bytes()).isLessThanOrEqualTo(LIMIT);
		assertThat(figures.entries()).isBetween(50L, LIMIT / 4096);
		assertThat(figures.evictions()).isGreaterThan(4_000);
		assertThat(figures.stores()).isGreaterThanOrEqualTo(5_000);
		assertThat(heldHits.get()).as("hits held across evictions").isPositive();
	}

}
