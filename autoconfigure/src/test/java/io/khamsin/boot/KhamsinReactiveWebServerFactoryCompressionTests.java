package io.khamsin.boot;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Boot asks of its own containers' compression ({@code server.compression.*}), asked of khamsin's factory with
 * the client Boot's reactive factory tests use: Reactor Netty's {@code HttpClient.compress(true)}, with a handler in
 * front of its decompressor that sees the {@code Content-Encoding} the server sent. A body of 3,000 characters is
 * compressed with gzip by default, and not when it is below the threshold, of another type, for an excluded user
 * agent, or of a type that does not parse. A client that states no preference among codings gets zstd.
 */
@Timeout(60)
class KhamsinReactiveWebServerFactoryCompressionTests {

	private static final String BODY = "F".repeat(3000);

	private final List<String> contentEncodings = new CopyOnWriteArrayList<>();

	private final List<List<String>> acceptEncodings = new CopyOnWriteArrayList<>();

	private WebServer webServer;

	@AfterEach
	void stop() {
		if (this.webServer != null) {
			this.webServer.destroy();
		}
	}

	@Test
	void reactorNettysCompressingClientOffersGzipThenBrInAFieldOfItsOwn() {
		get(enabled(), "text/plain", null);
		assertThat(this.acceptEncodings).containsExactly(List.of("gzip", "br"));
	}

	@Test
	void aGetIsAnsweredWithGzip() {
		ResponseEntity<String> response = get(enabled(), "text/plain", null);
		assertThat(this.contentEncodings).containsExactly("gzip");
		assertThat(response.getBody()).isEqualTo(BODY);
		assertThat(response.getHeaders().getVary()).containsExactly("Accept-Encoding");
	}

	@Test
	void aPostIsAnsweredWithGzip() {
		start(enabled(), "text/plain");
		ResponseEntity<String> response = client().post().retrieve().toEntity(String.class).block(Duration.ofSeconds(30));
		assertThat(this.contentEncodings).containsExactly("gzip");
		assertThat(response.getBody()).isEqualTo(BODY);
	}

	@Test
	void aBodyBelowTheMinimumResponseSizeIsNotCompressed() {
		Compression compression = enabled();
		compression.setMinResponseSize(DataSize.ofBytes(3001));
		assertThat(get(compression, "text/plain", null).getBody()).isEqualTo(BODY);
		assertThat(this.contentEncodings).containsExactly("identity");
	}

	@Test
	void aTypeOutsideTheMimeTypesIsNotCompressed() {
		Compression compression = enabled();
		compression.setMimeTypes(new String[] { "application/json" });
		get(compression, "text/plain", null);
		assertThat(this.contentEncodings).containsExactly("identity");
	}

	@Test
	void anExcludedUserAgentGetsNoCompression() {
		Compression compression = enabled();
		compression.setExcludedUserAgents(new String[] { "testUserAgent" });
		get(compression, "text/plain", "testUserAgent");
		assertThat(this.contentEncodings).containsExactly("identity");
		get(compression, "text/plain", "anotherUserAgent");
		assertThat(this.contentEncodings).containsExactly("identity", "gzip");
	}

	@Test
	void aContentTypeThatDoesNotParseIsNotCompressed() {
		Compression compression = enabled();
		compression.setMimeTypes(new String[] { "application/json" });
		start(compression, "test~plain");
		// The client cannot read a body of that type: only its status and coding are checked.
		ResponseEntity<Void> response = client().get().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(this.contentEncodings).containsExactly("identity");
	}

	@Test
	void compressionOffSendsTheBodyAsItIs() {
		get(new Compression(), "text/plain", null);
		assertThat(this.contentEncodings).containsExactly("identity");
	}

	@Test
	void aClientThatStatesNoPreferenceAmongItsCodingsGetsZstdThenBr() throws Exception {
		start(enabled(), "text/plain");
		HttpClient client = HttpClient.newHttpClient();
		for (String[] offered : List.of(new String[] { "gzip, deflate, br, zstd", "zstd" },
				new String[] { "gzip, br", "br" }, new String[] { "gzip;q=1, br;q=0.9", "gzip" })) {
			HttpResponse<byte[]> response = client.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + this.webServer.getPort() + "/"))
						.header("Accept-Encoding", offered[0])
						.build(),
					HttpResponse.BodyHandlers.ofByteArray());
			assertThat(response.headers().firstValue("content-encoding")).as(offered[0]).hasValue(offered[1]);
			assertThat(response.body().length).isLessThan(BODY.length() / 10);
		}
	}

	private static Compression enabled() {
		Compression compression = new Compression();
		compression.setEnabled(true);
		return compression;
	}

	private ResponseEntity<String> get(Compression compression, String contentType, String userAgent) {
		if (this.webServer == null) {
			start(compression, contentType);
		}
		WebClient.RequestHeadersSpec<?> request = client().get();
		if (userAgent != null) {
			request = request.header(HttpHeaders.USER_AGENT, userAgent);
		}
		return request.retrieve().toEntity(String.class).block(Duration.ofSeconds(30));
	}

	private void start(Compression compression, String contentType) {
		KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
		factory.setCompression(compression);
		factory.addConfigCustomizers((config) -> config.reactors(1));
		this.webServer = factory.getWebServer(chars(contentType));
		this.webServer.start();
	}

	/** 3,000 characters of a type, with their length, in one buffer, as Boot's tests answer. */
	private HttpHandler chars(String contentType) {
		byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
		return (request, response) -> {
			this.acceptEncodings.add(request.getHeaders().getValuesAsList(HttpHeaders.ACCEPT_ENCODING));
			response.getHeaders().set(HttpHeaders.CONTENT_TYPE, contentType);
			response.getHeaders().setContentLength(body.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
		};
	}

	private WebClient client() {
		// A connection of its own for every request: taking a connection from Reactor Netty's shared pool, right
		// after the previous request's client closed its own, can leave the request waiting for a connection that
		// never comes (the client opens none, as ss shows while it waits), on a loaded machine.
		reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.newConnection()
			.compress(true)
			.doOnConnected((connection) -> connection.channel()
				.pipeline()
				.addBefore(NettyPipeline.HttpDecompressor, "content-encoding", new ContentEncodingRecorder()));
		return WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(client))
			.baseUrl("http://localhost:" + this.webServer.getPort())
			.build();
	}

	/** Sees each response before the client decodes it, and records its coding. */
	private final class ContentEncodingRecorder extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (msg instanceof io.netty.handler.codec.http.HttpResponse response) {
				String coding = response.headers().get(HttpHeaderNames.CONTENT_ENCODING);
				KhamsinReactiveWebServerFactoryCompressionTests.this.contentEncodings
					.add((coding != null) ? coding : "identity");
			}
			ctx.fireChannelRead(msg);
		}

	}

}
