package io.khamsin.boot;

import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;
import reactor.netty.http.client.HttpClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Spring Boot's suite for every reactive web server factory ({@code AbstractReactiveWebServerFactoryTests} in
 * {@code spring-boot-web-server}'s test fixtures, Boot 4.0.7), run against {@link KhamsinReactiveWebServerFactory}.
 * Boot does not publish that suite, so this is khamsin's own rewrite of it: test for test under Boot's names, with
 * Boot's clients (Reactor Netty's {@code HttpClient} behind {@code WebClient}, Jetty's h2c client) and the same
 * assertions, on khamsin's own key stores. The cases of Boot's Reactor Netty subclass are in
 * {@link KhamsinReactiveWebServerFactoryNettySuiteTests}.
 * <p>
 * Where khamsin differs from Boot's containers the test says so: khamsin logs its own start line, a port given is
 * checked to be the port served, and a handler held by a request is awaited rather than polled.
 * {@code startedLogMessageWithMultiplePorts} is left out: it adds a second connector, which only Tomcat and Jetty
 * have (Boot disables it for Reactor Netty too); a khamsin server listens on one port.
 */
class KhamsinReactiveWebServerFactorySuiteTests extends AbstractKhamsinReactiveWebServerFactorySuiteTests {

	@TempDir
	Path dir;

	// Boot's version sets port 0, so that the port it compares is the one the server chose; a free port is set here,
	// so that the port compared is the one configured.
	@Test
	void specificPort() throws Exception {
		int specificPort = doWithRetry(() -> {
			int port;
			try (ServerSocket probe = new ServerSocket(0)) {
				port = probe.getLocalPort();
			}
			KhamsinReactiveWebServerFactory factory = getFactory();
			factory.setPort(port);
			this.webServer = factory.getWebServer(ECHO);
			this.webServer.start();
			return port;
		});
		Mono<String> result = postHelloWorld(getWebClient(this.webServer.getPort()).build());
		assertThat(result.block(Duration.ofSeconds(30))).isEqualTo("Hello World");
		assertThat(this.webServer.getPort()).isEqualTo(specificPort);
	}

	@Test
	void restartAfterStop() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		int port = this.webServer.getPort();
		assertThat(getResponse(port)).isEqualTo("Hello World");
		this.webServer.stop();
		assertThatException().isThrownBy(() -> getResponse(port));
		this.webServer.start();
		assertThat(getResponse(this.webServer.getPort())).isEqualTo("Hello World");
	}

	private static String getResponse(int port) {
		return postHelloWorld(getWebClient(port).build()).block(Duration.ofSeconds(30));
	}

	@Test
	void portIsMinusOneWhenConnectionIsClosed() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		assertThat(this.webServer.getPort()).isGreaterThan(0);
		this.webServer.destroy();
		assertThat(this.webServer.getPort()).isEqualTo(-1);
	}

	@Test
	void basicSslFromClassPath() {
		testBasicSslWithKeyStore("classpath:" + RESOURCES + "test.jks", "password");
	}

	@Test
	void basicSslFromFileSystem() throws Exception {
		Path keyStore = this.dir.resolve("test.jks");
		try (InputStream in = new ClassPathResource(RESOURCES + "test.jks").getInputStream()) {
			Files.copy(in, keyStore);
		}
		testBasicSslWithKeyStore(keyStore.toString(), "password");
	}

	private void testBasicSslWithKeyStore(String keyStore, String keyPassword) {
		KhamsinReactiveWebServerFactory factory = getFactory();
		Ssl ssl = new Ssl();
		ssl.setKeyStore(keyStore);
		ssl.setKeyPassword(keyPassword);
		ssl.setKeyStorePassword("secret");
		factory.setSsl(ssl);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		assertThat(executeSslRequest().block(Duration.ofSeconds(30))).isEqualTo("Hello World");
	}

	@Test
	void sslWithValidAlias() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		Ssl ssl = new Ssl();
		ssl.setKeyStore("classpath:" + RESOURCES + "test.jks");
		ssl.setKeyStorePassword("secret");
		ssl.setKeyPassword("password");
		ssl.setKeyAlias("test-alias");
		factory.setSsl(ssl);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		assertThat(executeSslRequest().block(Duration.ofSeconds(30))).isEqualTo("Hello World");
	}

	@Test
	void sslWithInvalidAliasFailsDuringStartup() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		Ssl ssl = new Ssl();
		ssl.setKeyStore("classpath:" + RESOURCES + "test.jks");
		ssl.setKeyPassword("password");
		ssl.setKeyAlias("test-alias-404");
		factory.setSsl(ssl);
		assertThatException().isThrownBy(() -> factory.getWebServer(ECHO).start())
			.withStackTraceContaining("Keystore does not contain alias 'test-alias-404'");
	}

	@Test
	void sslWantsClientAuthenticationSucceedsWithClientCertificate() throws Exception {
		Ssl ssl = clientAuthSsl(Ssl.ClientAuth.WANT);
		testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("test.jks", "password"));
	}

	@Test
	void sslWantsClientAuthenticationSucceedsWithoutClientCertificate() {
		Ssl ssl = clientAuthSsl(Ssl.ClientAuth.WANT);
		testClientAuthSuccess(ssl, buildTrustAllSslConnector());
	}

	@Test
	void sslNeedsClientAuthenticationSucceedsWithClientCertificate() throws Exception {
		Ssl ssl = clientAuthSsl(Ssl.ClientAuth.NEED);
		testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("test.jks", "password"));
	}

	@Test
	void sslNeedsClientAuthenticationFailsWithoutClientCertificate() {
		Ssl ssl = clientAuthSsl(Ssl.ClientAuth.NEED);
		startWithSsl(ssl);
		Mono<String> result = executeSslRequest(buildTrustAllSslConnector());
		assertThatExceptionOfType(WebClientRequestException.class)
			.isThrownBy(() -> result.block(Duration.ofSeconds(10)));
	}

	@Test
	void sslWithPemCertificates() throws Exception {
		Ssl ssl = new Ssl();
		ssl.setClientAuth(Ssl.ClientAuth.NEED);
		ssl.setCertificate("classpath:" + RESOURCES + "test-cert.pem");
		ssl.setCertificatePrivateKey("classpath:" + RESOURCES + "test-key.pem");
		ssl.setTrustCertificate("classpath:" + RESOURCES + "test-cert.pem");
		testClientAuthSuccess(ssl, buildTrustAllSslWithClientKeyConnector("test.p12", "secret"));
	}

	private void testClientAuthSuccess(Ssl ssl, ReactorClientHttpConnector connector) {
		startWithSsl(ssl);
		assertThat(executeSslRequest(connector).block(Duration.ofSeconds(30))).isEqualTo("Hello World");
	}

	private void startWithSsl(Ssl ssl) {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setSsl(ssl);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
	}

	@Test
	void compressionOfResponseToGetRequest() {
		WebClient client = prepareCompressionTest();
		ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertResponseIsCompressed(response);
	}

	@Test
	void compressionOfResponseToPostRequest() {
		WebClient client = prepareCompressionTest();
		ResponseEntity<Void> response = client.post().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertResponseIsCompressed(response);
	}

	@Test
	void noCompressionForSmallResponse() {
		Compression compression = enabledCompression();
		compression.setMinResponseSize(DataSize.ofBytes(3001));
		WebClient client = prepareCompressionTest(compression, MediaType.TEXT_PLAIN_VALUE);
		ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertResponseIsNotCompressed(response);
	}

	@Test
	void noCompressionForMimeType() {
		Compression compression = enabledCompression();
		compression.setMimeTypes(new String[] { "application/json" });
		WebClient client = prepareCompressionTest(compression, MediaType.TEXT_PLAIN_VALUE);
		ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertResponseIsNotCompressed(response);
	}

	@Test
	void noCompressionForUserAgent() {
		Compression compression = enabledCompression();
		compression.setExcludedUserAgents(new String[] { "testUserAgent" });
		WebClient client = prepareCompressionTest(compression, MediaType.TEXT_PLAIN_VALUE);
		ResponseEntity<Void> response = client.get()
			.header("User-Agent", "testUserAgent")
			.retrieve()
			.toBodilessEntity()
			.block(Duration.ofSeconds(30));
		assertResponseIsNotCompressed(response);
	}

	@Test
	void noCompressionForResponseWithInvalidContentType() {
		Compression compression = enabledCompression();
		compression.setMimeTypes(new String[] { "application/json" });
		WebClient client = prepareCompressionTest(compression, "test~plain");
		ResponseEntity<Void> response = client.get().retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
		assertResponseIsNotCompressed(response);
	}

	private WebClient prepareCompressionTest() {
		return prepareCompressionTest(enabledCompression(), MediaType.TEXT_PLAIN_VALUE);
	}

	private WebClient prepareCompressionTest(Compression compression, String responseContentType) {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setCompression(compression);
		this.webServer = factory.getWebServer(chars(3000, responseContentType));
		this.webServer.start();
		HttpClient client = HttpClient.create()
			.compress(true)
			.doOnConnected((connection) -> connection.channel()
				.pipeline()
				.addBefore(NettyPipeline.HttpDecompressor, "CompressionTest", new CompressionDetectionHandler()));
		return getWebClient(client, this.webServer.getPort()).build();
	}

	private static Compression enabledCompression() {
		Compression compression = new Compression();
		compression.setEnabled(true);
		return compression;
	}

	private static void assertResponseIsCompressed(ResponseEntity<Void> response) {
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getHeaders().getFirst("X-Test-Compressed")).isEqualTo("true");
	}

	private static void assertResponseIsNotCompressed(ResponseEntity<Void> response) {
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getHeaders().headerNames()).doesNotContain("X-Test-Compressed");
	}

	/** A body of {@code size} characters of a type, with its length, in one buffer. */
	private static HttpHandler chars(int size, String contentType) {
		byte[] body = "F".repeat(size).getBytes(StandardCharsets.UTF_8);
		return (request, response) -> {
			response.setStatusCode(HttpStatus.OK);
			response.getHeaders().set(HttpHeaders.CONTENT_TYPE, contentType);
			response.getHeaders().setContentLength(body.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
		};
	}

	@Test
	void whenSslIsEnabledAndNoKeyStoreIsConfiguredThenServerFailsToStart() {
		assertThatIllegalStateException().isThrownBy(() -> testBasicSslWithKeyStore(null, null))
			.withMessageContaining("SSL is enabled but no trust material is configured");
	}

	@Test
	void whenThereAreNoInFlightRequestsShutDownGracefullyReturnsTrueBeforePeriodElapses() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setShutdown(Shutdown.GRACEFUL);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
		this.webServer.shutDownGracefully(result::set);
		await().atMost(Duration.ofSeconds(30)).until(() -> GracefulShutdownResult.IDLE == result.get());
	}

	@Test
	void whenARequestRemainsInFlightThenShutDownGracefullyDoesNotInvokeCallbackUntilTheRequestCompletes()
			throws Exception {
		BlockingHandler blockingHandler = startGraceful();
		CountDownLatch responseLatch = new CountDownLatch(1);
		AtomicReference<ResponseEntity<Void>> responseReference = sendHeldRequest(blockingHandler, responseLatch);
		AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
		this.webServer.shutDownGracefully(result::set);
		assertThat(responseReference.get()).isNull();
		blockingHandler.completeOne();
		assertThat(responseLatch.await(5, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(30)).until(() -> GracefulShutdownResult.IDLE == result.get());
	}

	@Test
	void givenAnInflightRequestWhenTheServerIsStoppedThenGracefulShutdownCallbackIsCalledWithRequestsActive()
			throws Exception {
		BlockingHandler blockingHandler = startGraceful();
		AtomicReference<ResponseEntity<Void>> responseReference = sendHeldRequest(blockingHandler,
				new CountDownLatch(1));
		AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
		this.webServer.shutDownGracefully(result::set);
		assertThat(responseReference.get()).isNull();
		try {
			this.webServer.stop();
		}
		catch (Exception ex) {
			// Boot's suite lets stop fail here: only the callback's result counts.
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> GracefulShutdownResult.REQUESTS_ACTIVE == result.get());
		blockingHandler.completeOne();
	}

	@Test
	void whenARequestIsActiveAfterGracefulShutdownEndsThenStopWillComplete() throws Exception {
		BlockingHandler blockingHandler = startGraceful();
		sendHeldRequest(blockingHandler, new CountDownLatch(1));
		AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
		this.webServer.shutDownGracefully(result::set);
		this.webServer.stop();
		await().atMost(Duration.ofSeconds(30)).until(() -> GracefulShutdownResult.REQUESTS_ACTIVE == result.get());
		blockingHandler.completeOne();
	}

	// Stop returning at all is what this asserts: the class's timeout fails a stop that hangs on the held request.
	@Test
	void whenARequestIsActiveThenStopWillComplete() throws Exception {
		KhamsinReactiveWebServerFactory factory = getFactory();
		BlockingHandler blockingHandler = new BlockingHandler();
		this.webServer = factory.getWebServer(blockingHandler);
		this.webServer.start();
		sendHeldRequest(blockingHandler, new CountDownLatch(1));
		try {
			this.webServer.stop();
		}
		catch (Exception ex) {
			// Boot's suite lets stop fail here: only that it returns counts.
		}
		blockingHandler.completeOne();
	}

	private BlockingHandler startGraceful() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setShutdown(Shutdown.GRACEFUL);
		BlockingHandler blockingHandler = new BlockingHandler();
		this.webServer = factory.getWebServer(blockingHandler);
		this.webServer.start();
		return blockingHandler;
	}

	/** Sends a {@code GET} that the handler holds, and returns once the handler holds it. */
	private AtomicReference<ResponseEntity<Void>> sendHeldRequest(BlockingHandler blockingHandler,
			CountDownLatch responseLatch) {
		Mono<ResponseEntity<Void>> request = getWebClient(this.webServer.getPort()).build()
			.get()
			.retrieve()
			.toBodilessEntity();
		AtomicReference<ResponseEntity<Void>> responseReference = new AtomicReference<>();
		request.subscribe((response) -> {
			responseReference.set(response);
			responseLatch.countDown();
		}, (ex) -> {
			// A server stopped while the request is held closes its connection unanswered: that is no failure here.
		});
		blockingHandler.awaitQueue();
		return responseReference;
	}

	@Test
	void whenHttp2IsEnabledAndSslIsDisabledThenH2cCanBeUsed() throws Exception {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setHttp2(http2Enabled());
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		try (org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
				new HttpClientTransportOverHTTP2(new HTTP2Client()))) {
			client.start();
			ContentResponse response = client.POST("http://localhost:" + this.webServer.getPort())
				.body(new StringRequestContent("text/plain", "Hello World"))
				.send();
			assertThat(response.getStatus()).isEqualTo(HttpStatus.OK.value());
			assertThat(response.getContentAsString()).isEqualTo("Hello World");
		}
	}

	@Test
	void whenHttp2IsEnabledAndSslIsDisabledThenHttp11CanStillBeUsed() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setHttp2(http2Enabled());
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		Mono<String> result = postHelloWorld(getWebClient(this.webServer.getPort()).build());
		assertThat(result.block(Duration.ofSeconds(30))).isEqualTo("Hello World");
	}

	private static Http2 http2Enabled() {
		Http2 http2 = new Http2();
		http2.setEnabled(true);
		return http2;
	}

	// Boot's containers log "(Jetty|Netty|Tomcat) started on port <port> (http)"; khamsin logs its own line, with
	// the protocol under its ALPN name and, after it, its reactors and transport.
	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void startedLogMessageWithSinglePort(CapturedOutput output) {
		KhamsinReactiveWebServerFactory factory = getFactory();
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		assertThat(output)
			.containsPattern("khamsin started on port " + this.webServer.getPort() + " \\(http/1\\.1\\) ");
	}

	private static <T> T doWithRetry(Callable<T> action) throws Exception {
		Exception lastFailure = null;
		for (int i = 0; i < 10; i++) {
			try {
				return action.call();
			}
			catch (PortInUseException ex) {
				lastFailure = ex;
			}
		}
		throw new IllegalStateException("Action was not successful in 10 attempts", lastFailure);
	}

	/** Marks a response the server sent with gzip before the client's decompressor removes the coding. */
	static final class CompressionDetectionHandler extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (msg instanceof HttpResponse response
					&& response.headers().contains(HttpHeaderNames.CONTENT_ENCODING, "gzip", true)) {
				response.headers().set("X-Test-Compressed", "true");
			}
			ctx.fireChannelRead(msg);
		}

	}

	/** The test key store as both key and trust store, as Boot's client-authentication cases configure it. */
	private static Ssl clientAuthSsl(Ssl.ClientAuth clientAuth) {
		Ssl ssl = new Ssl();
		ssl.setClientAuth(clientAuth);
		ssl.setKeyStore("classpath:" + RESOURCES + "test.jks");
		ssl.setKeyStorePassword("secret");
		ssl.setKeyPassword("password");
		ssl.setTrustStore("classpath:" + RESOURCES + "test.jks");
		return ssl;
	}

}
