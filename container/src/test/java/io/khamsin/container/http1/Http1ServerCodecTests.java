package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decoder and encoder pair on an embedded channel: each response is encoded for the method of the request it
 * answers, in order, however the requests were pipelined.
 */
class Http1ServerCodecTests {

	private final Http1ServerCodec codec = new Http1ServerCodec(new HttpDecoderConfig(), new Http1ServerCodec.Listener() {

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

	private final EmbeddedChannel channel = new EmbeddedChannel(this.codec.decoder(), this.codec.encoder());

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

	private void receive(String requests) {
		this.channel.writeInbound(Unpooled.copiedBuffer(requests, StandardCharsets.US_ASCII));
		Object message;
		while ((message = this.channel.readInbound()) != null) {
			if (message instanceof HttpRequest request) {
				assertThat(request.method()).isIn(HttpMethod.GET, HttpMethod.HEAD);
			}
			ReferenceCountUtil.release(message);
		}
	}

	private String answer(String body) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
				Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII));
		response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length());
		this.channel.writeOutbound(response);
		StringBuilder bytes = new StringBuilder();
		ByteBuf out;
		while ((out = this.channel.readOutbound()) != null) {
			bytes.append(out.toString(StandardCharsets.US_ASCII));
			out.release();
		}
		return bytes.toString();
	}

}
