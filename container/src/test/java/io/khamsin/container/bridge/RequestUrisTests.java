package io.khamsin.container.bridge;

import java.net.URI;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestUrisTests {

	private final EmbeddedChannel channel = new EmbeddedChannel();

	private final RequestUris uris = new RequestUris();

	@Test
	void theSameTargetAndHostReuseTheLastUri() throws Exception {
		URI first = this.uris.uriOf(request("/orders?id=1", "shop:8080"), this.channel, "http");
		assertThat(first).hasToString("http://shop:8080/orders?id=1");
		assertThat(this.uris.uriOf(request("/orders?id=1", "shop:8080"), this.channel, "http")).isSameAs(first);
	}

	@Test
	void aDifferentTargetHostOrSchemeGivesItsOwnUri() throws Exception {
		URI first = this.uris.uriOf(request("/a", "shop"), this.channel, "http");
		assertThat(this.uris.uriOf(request("/b", "shop"), this.channel, "http")).hasToString("http://shop/b");
		assertThat(this.uris.uriOf(request("/b", "other"), this.channel, "http")).hasToString("http://other/b");
		assertThat(this.uris.uriOf(request("/b", "other"), this.channel, "https")).hasToString("https://other/b");
		assertThat(this.uris.uriOf(request("http://abs:1/c", "other"), this.channel, "http"))
			.hasToString("http://abs:1/c");
		assertThat(this.uris.uriOf(request("/a", "shop"), this.channel, "http")).isSameAs(first);
	}

	private static HttpRequest request(String target, String host) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
		request.headers().set("Host", host);
		return request;
	}

}
