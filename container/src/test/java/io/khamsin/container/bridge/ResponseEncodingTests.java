package io.khamsin.container.bridge;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.egress.EgressCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A response's compression as the response drives it, on an embedded channel: a whole body coded with its coded
 * length, a stream coded part by part and flushed so that each part decodes as it arrives, and a server that does
 * not compress writing the body as it is.
 */
class ResponseEncodingTests {

	private static final String BODY = "{\"event\":\"tick\",\"payload\":\"" + "abcdefgh".repeat(64) + "\"}";

	private final EmbeddedChannel channel = new EmbeddedChannel();

	private final RecordingChannel protocol = new RecordingChannel(this.channel);

	private final NettyDataBufferFactory buffers = new NettyDataBufferFactory(this.channel.alloc());

	@AfterEach
	void release() {
		this.protocol.written.forEach(ReferenceCountUtil::release);
		this.channel.finishAndReleaseAll();
	}

	private KhamsinServerHttpResponse response(boolean compresses) {
		HttpHeaders request = DefaultHttpHeadersFactory.headersFactory().newHeaders().set("Accept-Encoding", "gzip");
		BodyCompression compression = BodyCompression
			.of(CompressionConfig.of(compresses, List.of(), 0, List.of()));
		KhamsinServerHttpResponse response = KhamsinServerHttpResponse.create(this.protocol, this.buffers, false,
				compression, request, new EgressCounters());
		response.getHeaders().set("Content-Type", "application/json");
		return response;
	}

	private DataBuffer part(String text) {
		return this.buffers.wrap(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
	}

	@Test
	void aWholeBodyIsSentCodedWithItsCodedLength() {
		KhamsinServerHttpResponse response = response(true);
		AtomicReference<Throwable> written = new AtomicReference<>(new AssertionError("not written"));
		response.writeFull(part(BODY), written::set);
		assertThat(written.get()).isNull();
		assertThat(this.protocol.written).hasSize(1);
		HttpResponse head = this.protocol.head();
		assertThat(head.headers().get("Content-Encoding")).isEqualTo("gzip");
		assertThat(head.headers().get("Vary")).isEqualTo("Accept-Encoding");
		byte[] coded = this.protocol.body();
		assertThat(head.headers().getInt("Content-Length")).isEqualTo(coded.length).isLessThan(BODY.length());
		assertThat(gunzip(coded)).isEqualTo(BODY);
	}

	@Test
	void aStreamIsCodedPartByPartAndEndsWithTheCodingsTrailer() {
		KhamsinServerHttpResponse response = response(true);
		response.writePart(part(BODY), false);
		response.writePart(part(BODY), false);
		this.channel.runPendingTasks();
		response.finish();
		HttpResponse head = this.protocol.head();
		assertThat(head.headers().get("Content-Encoding")).isEqualTo("gzip");
		assertThat(head.headers().contains("Content-Length")).isFalse();
		assertThat(this.protocol.streaming).isTrue();
		assertThat(this.protocol.written.get(this.protocol.written.size() - 1)).isInstanceOf(LastHttpContent.class);
		assertThat(gunzip(this.protocol.body())).isEqualTo(BODY + BODY);
	}

	@Test
	void eachFlushedPartDecodesAsItArrives() {
		KhamsinServerHttpResponse response = response(true);
		response.writePart(part("data: one\n\n"), true);
		assertThat(inflateSoFar(this.protocol.body())).isEqualTo("data: one\n\n");
		response.writePart(part("data: two\n\n"), true);
		assertThat(inflateSoFar(this.protocol.body())).isEqualTo("data: one\n\ndata: two\n\n");
		response.finish();
	}

	@Test
	void anAbortedStreamWritesNothingMoreAndEndsWithNoCodedBytes() {
		KhamsinServerHttpResponse response = response(true);
		response.writePart(part(BODY), true);
		int before = this.protocol.written.size();
		response.abort();
		response.writePart(part(BODY), true);
		assertThat(this.protocol.written).hasSize(before);
		response.finish();
		assertThat(this.protocol.written.get(this.protocol.written.size() - 1))
			.isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
	}

	@Test
	void aServerThatDoesNotCompressWritesThePartsAsTheyAre() {
		KhamsinServerHttpResponse response = response(false);
		response.writePart(part("one,"), false);
		response.writePart(part("two"), true);
		response.finish();
		HttpResponse head = this.protocol.head();
		assertThat(head.headers().contains("Content-Encoding")).isFalse();
		assertThat(head.headers().contains("Vary")).isFalse();
		assertThat(new String(this.protocol.body(), StandardCharsets.UTF_8)).isEqualTo("one,two");
	}

	private static String gunzip(byte[] coded) {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(coded))) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** What the bytes of an unfinished gzip stream decode to so far: the deflate data after its 10-byte header. */
	private static String inflateSoFar(byte[] coded) {
		Inflater inflater = new Inflater(true);
		try {
			inflater.setInput(coded, 10, coded.length - 10);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			byte[] chunk = new byte[4096];
			int n;
			while ((n = inflater.inflate(chunk)) > 0) {
				out.write(chunk, 0, n);
			}
			return out.toString(StandardCharsets.UTF_8);
		}
		catch (DataFormatException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			inflater.end();
		}
	}

	/** A protocol that keeps what the response writes, in order, and writes nothing to the wire. */
	private static final class RecordingChannel implements ProtocolChannel {

		private final EmbeddedChannel channel;

		private final List<Object> written = new ArrayList<>();

		private boolean streaming;

		RecordingChannel(EmbeddedChannel channel) {
			this.channel = channel;
		}

		HttpResponse head() {
			return (HttpResponse) this.written.get(0);
		}

		byte[] body() {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			for (Object message : this.written) {
				if (message instanceof HttpContent content) {
					bytes.writeBytes(ByteBufUtil.getBytes(content.content()));
				}
			}
			return bytes.toByteArray();
		}

		@Override
		public Channel channel() {
			return this.channel;
		}

		@Override
		public ConnectionInfo connection() {
			return new PlainConnection("http", null, null);
		}

		@Override
		public void prepareHead(HttpResponse head, boolean streaming) {
			this.streaming = streaming;
		}

		@Override
		public ChannelFuture write(Object message, boolean flush, ChannelPromise promise) {
			this.written.add(message);
			ChannelPromise done = (promise != null) ? promise : this.channel.newPromise();
			return done.setSuccess();
		}

		@Override
		public ProtocolUpgrade upgrade() {
			return null;
		}

		@Override
		public void abort(Throwable cause) {
			throw new AssertionError("aborted", cause);
		}

		@Override
		public void pauseReading(boolean paused) {
		}

		@Override
		public void firstRequest() {
		}

	}

}
