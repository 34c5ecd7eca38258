package io.khamsin.container.cache;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;

import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.khamsin.container.compression.AcceptEncoding;
import io.khamsin.container.compression.ContentCoding;

import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class VariantTests {

	private final CacheFixture fixture = new CacheFixture();

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	private static String page(int bytes) {
		StringBuilder html = new StringBuilder("<html><body>");
		for (int i = 0; html.length() < bytes - 14; i++) {
			html.append("<p>item ").append(i).append(" of the catalogue</p>\n");
		}
		return html.append("</body></html>").toString();
	}

	private static String gunzip(Lookup.Hit hit) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(ByteBufUtil.getBytes(hit.body())))) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		finally {
			hit.release();
		}
	}

	@Test
	void aGzipVariantIsMadeOnceAndDecodesToTheIdentityBody() throws IOException {
		this.cache = this.fixture.builder(config().build()).build();
		String page = page(8 * 1024);
		this.fixture.render(this.fixture.lookup(this.cache, get("/page/1")), 200, page, "Cache-Control", "max-age=60",
				"Content-Type", "text/html;charset=utf-8");
		Lookup.Hit gzip = (Lookup.Hit) this.fixture.lookup(this.cache, get("/page/1", "Accept-Encoding", "gzip, br"));
		assertThat(gzip.representation().coding()).isEqualTo(ContentCoding.GZIP);
		assertThat(gzip.representation().length()).isLessThan(page.length() / 3);
		String head = CacheFixture.head(gzip);
		assertThat(head).contains("Content-Encoding: gzip\r\n", "Vary: Accept-Encoding\r\n",
				"Content-Length: " + gzip.representation().length() + "\r\n");
		assertThat(gunzip(gzip)).isEqualTo(page);
		Lookup.Hit again = (Lookup.Hit) this.fixture.lookup(this.cache, get("/page/1", "Accept-Encoding", "gzip"));
		assertThat(gunzip(again)).isEqualTo(page);
		Lookup.Hit identity = (Lookup.Hit) this.fixture.lookup(this.cache, get("/page/1"));
		assertThat(identity.representation().coding()).isEqualTo(ContentCoding.IDENTITY);
		assertThat(CacheFixture.head(identity))
			.contains("Vary: Accept-Encoding\r\n")
			.doesNotContain("Content-Encoding");
		assertThat(CacheFixture.body(identity)).isEqualTo(page);
		Lookup refused = this.fixture.lookup(this.cache, get("/page/1", "Accept-Encoding", "gzip;q=0, identity"));
		assertThat(((Lookup.Hit) refused).representation().coding()).isEqualTo(ContentCoding.IDENTITY);
		CacheFixture.release(refused);
		assertThat(this.cache.figures().variants()).isEqualTo(1);
	}

	@Test
	void aLargeBodysVariantIsMadeOffTheLoopAndServedToLaterClients() throws IOException {
		this.cache = this.fixture.builder(config().offLoopVariantSize(16 * 1024).build()).build();
		String page = page(50 * 1024);
		this.fixture.render(this.fixture.lookup(this.cache, get("/big")), 200, page, "Cache-Control", "max-age=60",
				"Content-Type", "text/html");
		long before = this.cache.figures().bytes();
		Lookup first = this.fixture.lookup(this.cache, get("/big", "Accept-Encoding", "gzip"));
		assertThat(((Lookup.Hit) first).representation().coding()).as("the first client does not wait")
			.isEqualTo(ContentCoding.IDENTITY);
		CacheFixture.release(first);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.cache.figures().variants() == 1);
		Lookup.Hit later = (Lookup.Hit) this.fixture.lookup(this.cache, get("/big", "Accept-Encoding", "gzip"));
		assertThat(later.representation().coding()).isEqualTo(ContentCoding.GZIP);
		assertThat(gunzip(later)).isEqualTo(page);
		assertThat(this.cache.figures().bytes()).as("the variant is weighed").isGreaterThan(before);
	}

	@Test
	void responsesTheApplicationCompressedOrThatAreNotTextGetNoVariant() {
		this.cache = this.fixture.builder(config().build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/png")), 200, page(4096), "Cache-Control", "max-age=60",
				"Content-Type", "image/png");
		Lookup png = this.fixture.lookup(this.cache, get("/png", "Accept-Encoding", "gzip"));
		assertThat(((Lookup.Hit) png).representation().coding()).isEqualTo(ContentCoding.IDENTITY);
		CacheFixture.release(png);
		assertThat(this.cache.figures().variants()).isZero();
	}

	@Test
	void aHitIsCodedAsAFreshResponseToTheSameClientWouldBe() {
		List<VariantEncoder> encoders = List.of(CompressedVariantEncoder.brotli(), new GzipVariantEncoder());
		Assumptions.assumeTrue(ContentCoding.BR.isAvailable(), "brotli4j's native library does not load here");
		this.cache = this.fixture.builder(config().build()).encoders(encoders).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/page/2")), 200, page(4096), "Cache-Control",
				"max-age=60", "Content-Type", "text/html");
		List<ContentCoding> offered = List.of(ContentCoding.BR, ContentCoding.GZIP);
		for (String acceptEncoding : List.of("gzip;q=1, br;q=0.5", "br, gzip", "gzip", "*;q=0.1, gzip;q=0.2",
				"br;q=0, gzip", "identity;q=1, gzip;q=0.5", "deflate")) {
			ContentCoding fresh = AcceptEncoding.negotiate(List.of(acceptEncoding), offered);
			Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache,
					get("/page/2", "Accept-Encoding", acceptEncoding));
			assertThat(hit.representation().coding()).as(acceptEncoding)
				.isEqualTo((fresh != null) ? fresh : ContentCoding.IDENTITY);
			hit.release();
		}
	}

}
