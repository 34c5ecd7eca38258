package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.cache.CacheFixture;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;

import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

/** Page-cache answers written on an HTTP/1.1 connection as bytes, past the response encoder. */
class Http1HitWriterTests {

	private final CacheFixture fixture = new CacheFixture();

	private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());

	private DefaultPageCache cache;

	@AfterEach
	void close() {
		this.channel.finishAndReleaseAll();
		if (this.cache != null) {
			this.cache.close();
		}
		this.fixture.close();
	}

	private ChannelHandlerContext ctx() {
		return this.channel.pipeline().firstContext();
	}

	private String written() {
		StringBuilder bytes = new StringBuilder();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			bytes.append(((ByteBuf) message).toString(StandardCharsets.ISO_8859_1));
			ReferenceCountUtil.release(message);
		}
		return bytes.toString();
	}

	private void cacheWith(String path, String body) {
		this.cache = this.fixture.cacheWithPage(path, body);
	}

	@Test
	void anHttp1HitIsTheEntrysHeadWithDateAndAgeThenItsBody() {
		cacheWith("/p", "hello");
		this.fixture.advanceSeconds(7);
		Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache, get("/p"));
		Http1HitWriter.write(ctx(), hit, false, false, ctx().voidPromise());
		this.channel.flush();
		String response = written();
		assertThat(response).startsWith("HTTP/1.1 200 OK\r\n")
			.contains("Content-Type: text/plain\r\n", "ETag: \"v1\"\r\n", "Content-Length: 5\r\n", "Age: 7\r\n",
					"Server: khamsin\r\n")
			.containsPattern("\r\nDate: \\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n")
			.doesNotContain("Connection")
			.endsWith("\r\n\r\nhello");
	}


	@Test
	void aLargeBodyIsWrittenFromTheEntrysBufferAndAClosingConnectionSaysSo() {
		String body = "y".repeat(10_000);
		cacheWith("/p", body);
		Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache, get("/p"));
		ChannelFuture write = Http1HitWriter.write(ctx(), hit, true, false, ctx().newPromise());
		this.channel.flush();
		assertThat(write.isSuccess()).isTrue();
		assertThat((Object) this.channel.outboundMessages().size()).isEqualTo(2);
		String response = written();
		assertThat(response).contains("Connection: close\r\n\r\n").endsWith(body);
	}


	@Test
	void a304CarriesTheValidatorsAndNoBody() {
		cacheWith("/p", "hello");
		Lookup.NotModified notModified = (Lookup.NotModified) this.fixture.lookup(this.cache,
				get("/p", "If-None-Match", "\"v1\""));
		Http1HitWriter.write(ctx(), notModified, false, true, ctx().voidPromise());
		this.channel.flush();
		assertThat(written()).startsWith("HTTP/1.1 304 Not Modified\r\n")
			.contains("ETag: \"v1\"\r\n", "Cache-Control: max-age=60\r\n", "Age: 0\r\n")
			.doesNotContain("Content-Length", "Content-Type")
			.endsWith("Connection: keep-alive\r\n\r\n");
	}

}
