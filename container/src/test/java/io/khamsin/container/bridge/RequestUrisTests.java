package io.khamsin.container.bridge;

import java.net.InetSocketAddress;
import java.net.URI;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestUrisTests {

	private static final ConnectionInfo HTTP = connection("http");

	private static final ConnectionInfo HTTPS = connection("https");

	private final RequestUris uris = new RequestUris();

	@Test
	void theSameTargetAndHostReuseTheLastUri() throws Exception {
		URI first = this.uris.uriOf(request("/orders?id=1", "shop:8080"), HTTP);
		assertThat(first).hasToString("http://shop:8080/orders?id=1");
		assertThat(this.uris.uriOf(request("/orders?id=1", "shop:8080"), HTTP)).isSameAs(first);
	}

	@Test
	void aDifferentTargetHostOrSchemeGivesItsOwnUri() throws Exception {
		URI first = this.uris.uriOf(request("/a", "shop"), HTTP);
		assertThat(this.uris.uriOf(request("/b", "shop"), HTTP)).hasToString("http://shop/b");
		assertThat(this.uris.uriOf(request("/b", "other"), HTTP)).hasToString("http://other/b");
		assertThat(this.uris.uriOf(request("/b", "other"), HTTPS)).hasToString("https://other/b");
		assertThat(this.uris.uriOf(request("http://abs:1/c", "other"), HTTP))
			.hasToString("http://abs:1/c");
		assertThat(this.uris.uriOf(request("/a", "shop"), HTTP)).isSameAs(first);
	}

	@Test
	void withoutAHostTheLocalAddressStandsInAndIsNotKept() throws Exception {
		URI uri = this.uris.uriOf(request("/a", null), HTTP);
		assertThat(uri).hasToString("http://127.0.0.1:8080/a");
		assertThat(this.uris.uriOf(request("/a", null), HTTP)).isNotSameAs(uri);
	}

	private static ConnectionInfo connection(String scheme) {
		return new PlainConnection(scheme, new InetSocketAddress("127.0.0.1", 50000),
				new InetSocketAddress("127.0.0.1", 8080));
	}

	private static HttpRequest request(String target, String host) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
		if (host != null) {
			request.headers().set("Host", host);
		}
		return request;
	}

}
