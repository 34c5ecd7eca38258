package io.khamsin.container.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.khamsin.container.cache.CacheFixture.body;
import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

class SingleFlightTests {

	private final CacheFixture fixture = new CacheFixture();

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	/** Look a request up on a loop; a deferred answer completes the future later, on that loop. */
	private CompletableFuture<Lookup> lookupLater(EventLoop loop, CompletableFuture<Lookup.Deferred> deferred) {
		CompletableFuture<Lookup> answer = new CompletableFuture<>();
		loop.execute(() -> {
			Lookup lookup = this.cache.lookup(get("/page/hot"), loop);
			if (lookup instanceof Lookup.Deferred waiting) {
				deferred.complete(waiting);
				waiting.whenReady((result) -> {
					assertThat(loop.inEventLoop()).as("completed on the waiter's own loop").isTrue();
					answer.complete(result);
				});
			}
			else {
				deferred.complete(null);
				answer.complete(lookup);
			}
		});
		return answer;
	}

	@Test
	void oneHundredConcurrentMissesOfOneKeyCauseOneRender() throws Exception {
		this.cache = this.fixture.builder(config().build()).build();
		List<CompletableFuture<Lookup>> answers = new ArrayList<>();
		List<CompletableFuture<Lookup.Deferred>> waiting = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			CompletableFuture<Lookup.Deferred> deferred = new CompletableFuture<>();
			waiting.add(deferred);
			answers.add(lookupLater(this.fixture.loop(), deferred));
		}
		CompletableFuture.allOf(waiting.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);
		List<Lookup> misses = new ArrayList<>();
		for (CompletableFuture<Lookup> answer : answers) {
			if (answer.isDone()) {
				misses.add(answer.get());
			}
		}
		assertThat(misses).hasSize(1).allMatch(Lookup.Miss.class::isInstance);
		assertThat(this.cache.figures().singleFlightWaits()).isEqualTo(99);
		this.fixture.render(misses.get(0), 200, "hot page", "Cache-Control", "max-age=60");
		int hits = 0;
		for (CompletableFuture<Lookup> answer : answers) {
			Lookup lookup = answer.get(30, TimeUnit.SECONDS);
			if (lookup instanceof Lookup.Hit) {
				assertThat(body(lookup)).isEqualTo("hot page");
				hits++;
			}
		}
		assertThat(hits).isEqualTo(99);
		assertThat(this.fixture.renders).hasValue(1);
		assertThat(this.cache.figures().requests(CacheResult.MISS)).isEqualTo(1);
		assertThat(this.cache.figures().requests(CacheResult.HIT)).isEqualTo(99);
	}

	@Test
	void waitersPastTheBoundGoToTheApplicationAtOnce() throws Exception {
		this.cache = this.fixture.builder(config().maxWaiters(2).build()).build();
		Lookup leader = this.fixture.lookup(this.cache, get("/page/hot"));
		assertThat(leader).isInstanceOf(Lookup.Miss.class);
		List<CompletableFuture<Lookup>> waiters = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			CompletableFuture<Lookup.Deferred> deferred = new CompletableFuture<>();
			waiters.add(lookupLater(this.fixture.loop(), deferred));
			assertThat(deferred.get(10, TimeUnit.SECONDS)).isNotNull();
		}
		Lookup third = this.fixture.lookup(this.cache, get("/page/hot"));
		assertThat(third).isInstanceOf(Lookup.Miss.class);
		assertThat(((Lookup.Miss) third).ticket().isCapturing()).isFalse();
		assertThat(this.cache.figures().singleFlightOverflows()).isEqualTo(1);
		CacheFixture.release(third);
		((Lookup.Miss) leader).ticket().abandon();
		for (CompletableFuture<Lookup> waiter : waiters) {
			Lookup lookup = waiter.get(10, TimeUnit.SECONDS);
			assertThat(lookup).as("a waiter whose render failed renders itself").isInstanceOf(Lookup.Miss.class);
			CacheFixture.release(lookup);
		}
	}

	@Test
	void aWaiterGoesToTheApplicationItselfAfterTheTimeout() throws Exception {
		this.cache = this.fixture.builder(config().waitTimeout(Duration.ofMillis(200)).build()).build();
		Lookup leader = this.fixture.lookup(this.cache, get("/page/hot"));
		long start = System.nanoTime();
		Lookup waiter = this.fixture.lookup(this.cache, get("/page/hot"));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		assertThat(waiter).isInstanceOf(Lookup.Miss.class);
		assertThat(this.cache.figures().singleFlightTimeouts()).isEqualTo(1);
		this.fixture.render(waiter, 200, "the waiter's own", "Cache-Control", "max-age=60");
		this.fixture.render(leader, 200, "the leader's", "Cache-Control", "max-age=60");
		assertThat(body(this.fixture.lookup(this.cache, get("/page/hot")))).isEqualTo("the leader's");
	}

	@Test
	void keysWhoseRenderWasUncacheableDoNotWaitForTheNextRender() {
		this.cache = this.fixture.builder(config().build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/page/mine")), 200, "mine", "Cache-Control", "private");
		Lookup next = this.fixture.lookup(this.cache, get("/page/mine"));
		assertThat(next).isEqualTo(new Lookup.Bypass(BypassReason.RECENTLY_UNCACHEABLE));
		this.fixture.now.addAndGet(LocalTier.UNCACHEABLE_MEMORY.toMillis() + 1);
		Lookup later = this.fixture.lookup(this.cache, get("/page/mine"));
		assertThat(later).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(later);
	}

	@Test
	void aCancelledWaiterReleasesWhatArrivesForIt() throws Exception {
		this.cache = this.fixture.builder(config().build()).build();
		Lookup leader = this.fixture.lookup(this.cache, get("/page/hot"));
		EventLoop loop = this.fixture.loop();
		CompletableFuture<Lookup.Deferred> deferred = new CompletableFuture<>();
		loop.execute(() -> deferred.complete((Lookup.Deferred) this.cache.lookup(get("/page/hot"), loop)));
		deferred.get(10, TimeUnit.SECONDS).cancel();
		this.fixture.render(leader, 200, "hot", "Cache-Control", "max-age=60");
		// The leak detector of the test class fails it if the waiter's hit was not released.
		assertThat(body(this.fixture.lookup(this.cache, get("/page/hot")))).isEqualTo("hot");
	}

}
