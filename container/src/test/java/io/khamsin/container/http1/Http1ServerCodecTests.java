package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The decoder and encoder pair on an embedded channel: each response is encoded for the method of the request it
 * answers, in order, however the requests were pipelined; a connection holds a decoder only while a request
 * arrives and an encoder only while a response leaves, and either goes to another connection only when it stands
 * between two messages.
 */
class Http1ServerCodecTests {

	private final CodecPool pool = new CodecPool(new HttpDecoderConfig());

	private final Http1ServerCodec codec = newCodec();

	private final EmbeddedChannel channel = new EmbeddedChannel(this.codec);

	private final List<HttpObject> received = new ArrayList<>();

	private Http1ServerCodec newCodec() {
		return new Http1ServerCodec(this.pool, new Http1ServerCodec.Listener() {

			@Override
			public void bytesReceived() {
			}

			@Override
			public void bytesRead(int bytes) {
			}

			@Override
			public void closeAfterResponse() {
			}

		});
	}

	@AfterEach
	void close() {
		this.channel.finishAndReleaseAll();
	}

	@Test
	void aHeadRequestPipelinedBehindAnotherIsAnsweredWithoutABodyWhenMoreRequestsArriveFirst() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\nHEAD /b HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(answer("a")).endsWith("\r\n\r\na");
		receive("GET /c HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(answer("b")).endsWith("\r\n\r\n");
		assertThat(answer("c")).endsWith("\r\n\r\nc");
	}

	@Test
	void aResponseWrittenPastTheEncoderAnswersTheOldestRequest() {
		receive("HEAD /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n");
		this.codec.responseWrittenDirectly();
		assertThat(answer("b")).endsWith("\r\n\r\nb");
	}

	@Test
	void anIdleConnectionHoldsNoDecoder() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(this.received).hasSize(2);
		assertThat(this.codec.holdsDecoder()).isFalse();
		assertThat(this.pool.idleDecoders()).isOne();
	}

	@Test
	void anEmptyLineAfterARequestLeavesTheConnectionWithoutADecoder() {
		receive("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
		receive("\r\n");
		assertThat(this.codec.holdsDecoder()).isFalse();
		receive("\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(this.received).hasSize(4);
		assertThat(((HttpRequest) this.received.get(2)).uri()).isEqualTo("/b");
		assertThat(this.codec.holdsDecoder()).isFalse();
	}

	@Test
	void aRequestHeadSplitAcrossReadsKeepsItsDecoderUntilItEnds() {
		receive("GET /a HTTP/1.1\r\n");
		assertThat(this.codec.holdsDecoder()).isTrue();
		receive("Host: a\r\n");
		assertThat(this.codec.holdsDecoder()).isTrue();
		receive("\r\n");
		assertThat(this.codec.holdsDecoder()).isFalse();
		assertThat(this.received).hasSize(2);
		assertThat(((HttpRequest) this.received.get(0)).uri()).isEqualTo("/a");
	}

	@Test
	void aRequestBodySplitAcrossReadsKeepsItsDecoderUntilItEnds() {
		receive("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\n\r\nabc");
		assertThat(this.codec.holdsDecoder()).isTrue();
		receive("def");
		assertThat(this.codec.holdsDecoder()).isFalse();
		assertThat(this.received).hasSize(3).last().isInstanceOf(LastHttpContent.class);
	}

	@Test
	void aPipelinedRequestCutOffByTheEndOfAReadKeepsItsDecoder() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HT");
		assertThat(this.codec.holdsDecoder()).isTrue();
		receive("TP/1.1\r\nHost: a\r\n\r\n");
		assertThat(this.codec.holdsDecoder()).isFalse();
		assertThat(this.received).hasSize(4);
		assertThat(((HttpRequest) this.received.get(2)).uri()).isEqualTo("/b");
	}

	@Test
	void connectionsTakeTurnsWithOneDecoder() {
		Http1ServerCodec other = newCodec();
		EmbeddedChannel otherChannel = new EmbeddedChannel(other);
		try {
			receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
			otherChannel.writeInbound(ascii("GET /b HTTP/1.1\r\nHost: a\r\n\r\n"));
			receive("GET /c HTTP/1.1\r\nHost: a\r\n\r\n");
			assertThat(this.pool.idleDecoders()).isOne();
			assertThat(((HttpRequest) otherChannel.readInbound()).uri()).isEqualTo("/b");
		}
		finally {
			otherChannel.finishAndReleaseAll();
		}
		assertThat(((HttpRequest) this.received.get(2)).uri()).isEqualTo("/c");
	}

	@Test
	void aDecoderInTheMiddleOfARequestIsNotLentToAnotherConnection() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
		receive("GET /b HTTP/1.1\r\n");
		Http1ServerCodec other = newCodec();
		EmbeddedChannel otherChannel = new EmbeddedChannel(other);
		try {
			otherChannel.writeInbound(ascii("GET /c HTTP/1.1\r\nHost: a\r\n\r\n"));
			assertThat(((HttpRequest) otherChannel.readInbound()).uri()).isEqualTo("/c");
		}
		finally {
			otherChannel.finishAndReleaseAll();
		}
		receive("Host: a\r\n\r\n");
		assertThat(((HttpRequest) this.received.get(2)).uri()).isEqualTo("/b");
		assertThat(this.pool.idleDecoders()).isEqualTo(2);
	}

	@Test
	void aDecoderThatRejectedARequestStaysWithItsConnection() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
		receive("NOT HTTP\r\n\r\n");
		assertThat(this.received).hasSize(3);
		assertThat(this.received.get(2).decoderResult().isFailure()).isTrue();
		assertThat(this.codec.holdsDecoder()).isTrue();
		assertThat(this.pool.idleDecoders()).isZero();
		receive("GET /b HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(this.received).hasSize(3);
	}

	@Test
	void decodersOfConnectionsClosedMidRequestFreeTheirScratchSpace() {
		long before = UnpooledByteBufAllocator.DEFAULT.metric().usedHeapMemory();
		List<EmbeddedChannel> channels = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			EmbeddedChannel channel = new EmbeddedChannel(newCodec());
			channel.writeInbound(ascii("GET /a HTTP/1.1\r\nHost: a\r\n"));
			channels.add(channel);
		}
		long lent = UnpooledByteBufAllocator.DEFAULT.metric().usedHeapMemory();

		channels.forEach(EmbeddedChannel::finishAndReleaseAll);

		// Each decoder holds its parser's scratch space (and the bytes of the unfinished head) while lent.
		assertThat(lent - before).isGreaterThanOrEqualTo(50 * 128);
		assertThat(UnpooledByteBufAllocator.DEFAULT.metric().usedHeapMemory()).isLessThanOrEqualTo(before);
		assertThat(this.pool.idleDecoders()).isZero();
	}

	@Test
	void bytesTheDecoderHoldsGoToTheNextHandlerWhenItIsRemoved() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b");
		this.channel.pipeline().remove(this.codec);
		assertThat(this.codec.holdsDecoder()).isFalse();
		ByteBuf rest = this.channel.readInbound();
		try {
			assertThat(rest.toString(StandardCharsets.US_ASCII)).isEqualTo("GET /b");
		}
		finally {
			rest.release();
		}
	}

	@Test
	void anIdleConnectionHoldsNoEncoder() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThat(answer("a")).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\na");
		assertThat(this.codec.holdsEncoder()).isFalse();
		assertThat(this.pool.idleEncoders()).isOne();
	}

	@Test
	void aStreamedResponseKeepsItsEncoderUntilItsLastPartWhileAnotherConnectionAnswers() {
		Http1ServerCodec other = newCodec();
		EmbeddedChannel otherChannel = new EmbeddedChannel(other);
		try {
			receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
			HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
			HttpUtil.setTransferEncodingChunked(head, true);
			assertThat(send(this.channel, head)).endsWith("transfer-encoding: chunked\r\n\r\n");
			assertThat(send(this.channel, new DefaultHttpContent(ascii("hello")))).isEqualTo("5\r\nhello\r\n");
			assertThat(this.codec.holdsEncoder()).isTrue();
			otherChannel.writeInbound(ascii("HEAD /b HTTP/1.1\r\nHost: a\r\n\r\n"));
			otherChannel.releaseInbound();
			FullHttpResponse otherResponse = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					ascii("b"));
			otherResponse.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 1);
			assertThat(send(otherChannel, otherResponse)).endsWith("content-length: 1\r\n\r\n");
			assertThat(send(this.channel, new DefaultHttpContent(ascii("world")))).isEqualTo("5\r\nworld\r\n");
			assertThat(send(this.channel, LastHttpContent.EMPTY_LAST_CONTENT)).isEqualTo("0\r\n\r\n");
			assertThat(this.codec.holdsEncoder()).isFalse();
			assertThat(this.pool.idleEncoders()).isEqualTo(2);
		}
		finally {
			otherChannel.finishAndReleaseAll();
		}
	}

	@Test
	void anEncoderThatFailedStaysWithItsConnection() {
		receive("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
		assertThatExceptionOfType(EncoderException.class)
			.isThrownBy(() -> this.channel.writeOutbound(new DefaultHttpContent(ascii("no head"))));
		assertThat(this.codec.holdsEncoder()).isTrue();
		assertThat(this.pool.idleEncoders()).isZero();
	}

	private static ByteBuf ascii(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
	}

	private static String send(EmbeddedChannel channel, Object message) {
		channel.writeOutbound(message);
		StringBuilder bytes = new StringBuilder();
		ByteBuf out;
		while ((out = channel.readOutbound()) != null) {
			bytes.append(out.toString(StandardCharsets.US_ASCII));
			out.release();
		}
		return bytes.toString();
	}

	private void receive(String bytes) {
		this.channel.writeInbound(ascii(bytes));
		Object message;
		while ((message = this.channel.readInbound()) != null) {
			assertThat(message).isInstanceOf(HttpObject.class);
			this.received.add((HttpObject) message);
			ReferenceCountUtil.release(message);
		}
	}

	private String answer(String body) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
				ascii(body));
		response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length());
		return send(this.channel, response);
	}

}
