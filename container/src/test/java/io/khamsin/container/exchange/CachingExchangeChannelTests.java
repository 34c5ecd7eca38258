package io.khamsin.container.exchange;

import java.nio.charset.StandardCharsets;
import java.util.Date;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.bridge.PlainConnection;
import io.khamsin.container.cache.CacheFixture;
import io.khamsin.container.cache.CacheResult;
import io.khamsin.container.cache.DefaultPageCache;
import io.khamsin.container.cache.Lookup;

import static io.khamsin.container.cache.CacheFixture.config;
import static io.khamsin.container.cache.CacheFixture.get;
import static org.assertj.core.api.Assertions.assertThat;

/** The page cache's tap on the response a render writes, in front of the protocol's channel. */
class CachingExchangeChannelTests {

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

	private String written() {
		StringBuilder bytes = new StringBuilder();
		Object message;
		while ((message = this.channel.readOutbound()) != null) {
			bytes.append(((ByteBuf) message).toString(StandardCharsets.ISO_8859_1));
			ReferenceCountUtil.release(message);
		}
		return bytes.toString();
	}

	@Test
	void theTapStoresAStreamedResponseAsTheBridgeWritesIt() {
		this.cache = this.fixture.builder(config().build()).build();
		Lookup.Miss miss = (Lookup.Miss) this.fixture.lookup(this.cache, get("/stream"));
		CapturingChannel protocol = new CapturingChannel(this.channel, this.fixture.now);
		CachingExchangeChannel tap = new CachingExchangeChannel(protocol, miss.ticket());
		assertThat(tap.copiesResponse()).as("a file body the ticket stores is read in chunks").isTrue();
		HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
		head.headers().set("Cache-Control", "max-age=60").set("Transfer-Encoding", "chunked");
		tap.prepareHead(head, true);
		tap.write(head, false);
		tap.write(new DefaultHttpContent(Unpooled.copiedBuffer("one,", StandardCharsets.US_ASCII)), false);
		tap.write(new DefaultHttpContent(Unpooled.copiedBuffer("two", StandardCharsets.US_ASCII)), false);
		ChannelFuture last = tap.write(LastHttpContent.EMPTY_LAST_CONTENT, true);
		tap.exchangeComplete(last);
		assertThat(protocol.completed).isTrue();
		assertThat(written()).contains("one,", "two");
		Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache, get("/stream"));
		assertThat(CacheFixture.head(hit))
			.contains("Content-Length: 7\r\n")
			.doesNotContain("Transfer-Encoding", "Date:");
		assertThat(CacheFixture.body(hit)).isEqualTo("one,two");
	}


	@Test
	void aConnectionClosedBeforeTheEndAbandonsTheTicketAndReleasesItsCopy() {
		this.cache = this.fixture.builder(config().build()).build();
		Lookup.Miss miss = (Lookup.Miss) this.fixture.lookup(this.cache, get("/p"));
		CachingExchangeChannel tap = new CachingExchangeChannel(new CapturingChannel(this.channel, this.fixture.now), miss.ticket());
		HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
		head.headers().set("Cache-Control", "max-age=60").set("Content-Length", 6);
		tap.write(head, false);
		tap.write(new DefaultHttpContent(Unpooled.copiedBuffer("hal", StandardCharsets.US_ASCII)), true);
		this.channel.close();
		written();
		assertThat(this.cache.figures().requests(CacheResult.MISS)).isEqualTo(1);
		assertThat(this.cache.figures().entries()).isZero();
	}


	@Test
	void aConnectionClosedAfterTheWholeAnnouncedBodyStoresTheResponse() {
		// A client that read every announced byte may leave before the exchange's completion reaches the tap.
		this.cache = this.fixture.builder(config().build()).build();
		Lookup.Miss miss = (Lookup.Miss) this.fixture.lookup(this.cache, get("/p"));
		CapturingChannel protocol = new CapturingChannel(this.channel, this.fixture.now);
		CachingExchangeChannel tap = new CachingExchangeChannel(protocol, miss.ticket());
		HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
		head.headers().set("Cache-Control", "max-age=60").set("Content-Length", 6);
		tap.write(head, false);
		tap.write(new DefaultHttpContent(Unpooled.copiedBuffer("hal", StandardCharsets.US_ASCII)), false);
		tap.write(new DefaultHttpContent(Unpooled.copiedBuffer("ves", StandardCharsets.US_ASCII)), true);
		this.channel.close();
		tap.exchangeComplete(tap.write(LastHttpContent.EMPTY_LAST_CONTENT, true));
		written();
		assertThat(this.cache.figures().requests(CacheResult.MISS)).isEqualTo(1);
		Lookup.Hit hit = (Lookup.Hit) this.fixture.lookup(this.cache, get("/p"));
		assertThat(CacheFixture.body(hit)).isEqualTo("halves");
	}

	@Test
	void staleIfErrorReplacesTheApplicationsErrorOnTheWire() {
		this.cache = this.fixture.builder(config().staleIfError(java.time.Duration.ofMinutes(5)).build()).build();
		this.fixture.render(this.fixture.lookup(this.cache, get("/p")), 200, "last good", "Cache-Control", "max-age=1");
		this.fixture.advanceSeconds(10);
		Lookup.Miss miss = (Lookup.Miss) this.fixture.lookup(this.cache, get("/p"));
		CapturingChannel protocol = new CapturingChannel(this.channel, this.fixture.now);
		CachingExchangeChannel tap = new CachingExchangeChannel(protocol, miss.ticket());
		DefaultFullHttpResponse error = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.INTERNAL_SERVER_ERROR, Unpooled.copiedBuffer("boom", StandardCharsets.US_ASCII));
		tap.exchangeComplete(tap.write(error, true));
		assertThat(protocol.heads).hasSize(1);
		HttpResponse written = protocol.heads.get(0);
		assertThat(written.status().code()).isEqualTo(200);
		assertThat(written.headers().get("Age")).isEqualTo("10");
		assertThat(written()).isEqualTo("last good");
		assertThat(this.cache.figures().requests(CacheResult.STALE)).isEqualTo(1);
	}

	/** A protocol that writes the body bytes of what it is given to an embedded channel and keeps the heads. */
	static final class CapturingChannel implements ExchangeChannel {

		final EmbeddedChannel channel;

		final java.util.List<HttpResponse> heads = new java.util.ArrayList<>();

		final java.util.concurrent.atomic.AtomicLong now;

		boolean completed;

		CapturingChannel(EmbeddedChannel channel, java.util.concurrent.atomic.AtomicLong now) {
			this.channel = channel;
			this.now = now;
		}

		@Override
		public Channel channel() {
			return this.channel;
		}

		@Override
		public void prepareHead(HttpResponse head, boolean streaming) {
			head.headers().set("Date", DateFormatter.format(new Date(this.now.get()))).set("Connection", "keep-alive");
		}

		@Override
		public io.khamsin.container.bridge.ConnectionInfo connection() {
			return new PlainConnection("http", null, null);
		}

		@Override
		public io.khamsin.container.metrics.ReactorMetrics reactor() {
			return null;
		}

		@Override
		public ChannelFuture writeFixed(io.khamsin.container.fixed.FixedResponseTable.Entry response,
				boolean headRequest, io.netty.channel.ChannelPromise promise) {
			return this.channel.newSucceededFuture();
		}

		@Override
		public ChannelFuture writeHit(Lookup.Hit hit, io.netty.channel.ChannelPromise promise) {
			hit.release();
			return this.channel.newSucceededFuture();
		}

		@Override
		public ChannelFuture writeNotModified(Lookup.NotModified notModified, io.netty.channel.ChannelPromise promise) {
			return this.channel.newSucceededFuture();
		}

		@Override
		public ChannelFuture refuse(HttpResponseStatus status, CharSequence retryAfter) {
			return this.channel.newSucceededFuture();
		}

		@Override
		public io.khamsin.container.bridge.ProtocolUpgrade upgrade() {
			return null;
		}

		@Override
		public ChannelFuture write(Object message, boolean flush, io.netty.channel.ChannelPromise promise) {
			if (message instanceof HttpResponse head) {
				this.heads.add(head);
			}
			if (message instanceof io.netty.handler.codec.http.HttpContent content) {
				return this.channel.writeAndFlush(content.content());
			}
			return this.channel.newSucceededFuture();
		}

		@Override
		public void exchangeComplete(ChannelFuture lastWrite) {
			this.completed = true;
		}

		@Override
		public void abort(Throwable cause) {
		}

		@Override
		public void pauseReading(boolean paused) {
		}

		@Override
		public void firstRequest() {
		}

	}

}
