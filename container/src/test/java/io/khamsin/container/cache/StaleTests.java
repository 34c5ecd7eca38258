package io.khamsin.container.cache;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.khamsin.container.cache.CacheFixture.body;
import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

class StaleTests {

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
	void aStaleEntryIsServedWhileOneBackgroundRenderRefreshesIt() {
		this.cache = this.fixture.builder(config().staleWhileRevalidate(Duration.ofSeconds(30)).build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/p")), 200, "old", "Cache-Control", "max-age=10");
		this.fixture.advanceSeconds(15);
		Lookup stale = this.fixture.lookup(this.cache, get("/p"));
		Lookup.Hit hit = (Lookup.Hit) stale;
		assertThat(hit.stale()).isTrue();
		assertThat(hit.revalidation()).as("the first stale hit starts the background render").isNotNull();
		assertThat(hit.revalidation().isRevalidation()).isTrue();
		Lookup again = this.fixture.lookup(this.cache, get("/p"));
		assertThat(((Lookup.Hit) again).revalidation()).as("one background render at a time").isNull();
		assertThat(body(again)).isEqualTo("old");
		Ticket revalidation = hit.revalidation();
		assertThat(body(stale)).isEqualTo("old");
		this.fixture.render(revalidation, 200, "new", "Cache-Control", "max-age=10");
		Lookup fresh = this.fixture.lookup(this.cache, get("/p"));
		assertThat(((Lookup.Hit) fresh).stale()).isFalse();
		assertThat(body(fresh)).isEqualTo("new");
		assertThat(this.cache.figures().requests(CacheResult.STALE)).isEqualTo(2);
		assertThat(this.cache.figures().requests(CacheResult.HIT)).isEqualTo(1);
	}

	@Test
	void theResponsesOwnStaleWhileRevalidateWinsAndMustRevalidateForbidsIt() {
		this.cache = this.fixture.builder(config().build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/own")), 200, "own", "Cache-Control",
				"max-age=1, stale-while-revalidate=60");
		this.fixture.render(this.fixture.lookup(this.cache, get("/strict")), 200, "strict", "Cache-Control",
				"max-age=1, stale-while-revalidate=60, must-revalidate");
		this.fixture.advanceSeconds(5);
		Lookup own = this.fixture.lookup(this.cache, get("/own"));
		assertThat(((Lookup.Hit) own).stale()).isTrue();
		CacheFixture.release(own);
		Lookup strict = this.fixture.lookup(this.cache, get("/strict"));
		assertThat(strict).isInstanceOf(Lookup.Miss.class);
		CacheFixture.release(strict);
	}

	@Test
	void aStaleEntryAnswersInsteadOfAnErrorOfTheApplication() {
		this.cache = this.fixture.builder(config().staleIfError(Duration.ofSeconds(60)).build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/p")), 200, "last good", "Cache-Control", "max-age=10");
		this.fixture.advanceSeconds(20);
		Lookup miss = this.fixture.lookup(this.cache, get("/p"));
		Ticket ticket = ((Lookup.Miss) miss).ticket();
		assertThat(ticket.staleIfError(404)).isNull();
		Lookup.Hit stale = ticket.staleIfError(503);
		assertThat(stale.stale()).isTrue();
		assertThat(body(stale)).isEqualTo("last good");
		ticket.complete();
		assertThat(this.cache.figures().requests(CacheResult.STALE)).isEqualTo(1);
		this.fixture.advanceSeconds(60);
		Ticket late = ((Lookup.Miss) this.fixture.lookup(this.cache, get("/p"))).ticket();
		assertThat(late.staleIfError(503)).as("past the window").isNull();
		late.abandon();
	}

}
