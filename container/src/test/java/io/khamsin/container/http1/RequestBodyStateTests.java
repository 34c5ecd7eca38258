package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request body as an HTTP/1.1 connection reads it: what its head announced, what arrived, and the bounded
 * draining of what the exchange left unread.
 */
class RequestBodyStateTests {

	private final RequestBodyState body = new RequestBodyState();

	@Test
	void aHeadAnnouncesALengthChunksOrNothing() {
		this.body.start(request("Content-Length", "12"));
		assertThat(this.body.announcedLength()).isEqualTo(12);
		assertThat(this.body.expectsBytes()).isTrue();
		this.body.start(request("Transfer-Encoding", "chunked"));
		assertThat(this.body.announcedLength()).isEqualTo(-1);
		assertThat(this.body.expected()).isTrue();
		this.body.start(request("Content-Length", "0"));
		assertThat(this.body.announcedLength()).isZero();
		assertThat(this.body.expected()).isFalse();
		this.body.start(request());
		assertThat(this.body.announcedLength()).isZero();
	}

	@Test
	void theBodyEndsWithItsLastPartAndANewHeadStartsAgain() {
		this.body.start(request("Content-Length", "6"));
		assertThat(received(part("abc"))).isFalse();
		assertThat(this.body.ended()).isFalse();
		assertThat(received(last("def"))).isTrue();
		assertThat(this.body.ended()).isTrue();
		assertThat(this.body.received()).isEqualTo(6);
		this.body.start(request());
		assertThat(this.body.ended()).isFalse();
		assertThat(this.body.received()).isZero();
	}

	@Test
	void anUnreadBodyIsDrainedUpToTheLimitAndNoFurther() {
		this.body.start(request("Content-Length", Long.toString(3 * RequestBodyState.DISCARD_LIMIT)));
		assertThat(this.body.canBeDrained()).as("more than the limit is left").isFalse();
		received(part("x".repeat(1000)));
		this.body.startDraining();
		assertThat(this.body.draining()).isTrue();
		assertThat(drain(part("y".repeat((int) RequestBodyState.DISCARD_LIMIT)))).isEqualTo(RequestBodyState.Drained.MORE);
		assertThat(drain(part("z"))).isEqualTo(RequestBodyState.Drained.TOO_MUCH);
		assertThat(this.body.draining()).isFalse();
	}

	@Test
	void aDrainedBodyThatEndsWithinTheLimitLetsTheConnectionGoOn() {
		this.body.start(request("Transfer-Encoding", "chunked"));
		assertThat(this.body.canBeDrained()).as("a chunked body is drained up to the limit").isTrue();
		this.body.startDraining();
		assertThat(drain(part("abc"))).isEqualTo(RequestBodyState.Drained.MORE);
		assertThat(drain(LastHttpContent.EMPTY_LAST_CONTENT)).isEqualTo(RequestBodyState.Drained.ENDED);
		assertThat(this.body.ended()).isTrue();
		assertThat(this.body.draining()).isFalse();
	}

	private boolean received(HttpContent content) {
		try {
			return this.body.received(content);
		}
		finally {
			content.release();
		}
	}

	private RequestBodyState.Drained drain(HttpContent content) {
		try {
			return this.body.drain(content);
		}
		finally {
			content.release();
		}
	}

	private static HttpRequest request(String... headers) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upload");
		for (int i = 0; i < headers.length; i += 2) {
			request.headers().set(headers[i], headers[i + 1]);
		}
		return request;
	}

	private static HttpContent part(String text) {
		return new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
	}

	private static HttpContent last(String text) {
		return new DefaultLastHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
	}

}
