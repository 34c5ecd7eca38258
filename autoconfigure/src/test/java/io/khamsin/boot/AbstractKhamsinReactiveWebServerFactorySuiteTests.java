package io.khamsin.boot;

import java.io.InputStream;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import javax.net.ssl.KeyManagerFactory;

import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;

import static org.awaitility.Awaitility.await;

/**
 * What the two classes that mirror Spring Boot's reactive web server factory tests share, as Boot's own suite holds
 * it in its abstract class: a factory as an application gets it, the server under test stopped after each test, the
 * handlers (one that echoes the request body, one that holds requests until told), and Reactor Netty's client in
 * cleartext and over TLS, trusting any certificate and, where asked, presenting one.
 * <p>
 * The key stores and PEM files are khamsin's own, made with {@code keytool} and {@code openssl}, with the passwords
 * and the alias Boot's suite uses: {@code test.jks} (store {@code secret}, keys {@code password}, aliases
 * {@code test-alias} and {@code khamsin}), {@code test-cert.pem} and {@code test-key.pem} with {@code test.p12} (the
 * same key, {@code secret}), and the Ed25519 pairs {@code ed25519-1} and {@code ed25519-2}.
 */
@Timeout(120)
abstract class AbstractKhamsinReactiveWebServerFactorySuiteTests {

	static final String RESOURCES = "io/khamsin/boot/";

	static final HttpHandler ECHO = (request, response) -> response.writeWith(request.getBody());

	protected WebServer webServer;

	@AfterEach
	void tearDown() {
		if (this.webServer != null) {
			try {
				this.webServer.stop();
				this.webServer.destroy();
			}
			catch (RuntimeException ex) {
				// A test that failed to start a server has nothing to stop.
			}
		}
	}

	static KhamsinReactiveWebServerFactory getFactory() {
		return new KhamsinReactiveWebServerFactory(0);
	}

	static WebClient.Builder getWebClient(int port) {
		return getWebClient(HttpClient.create(), port);
	}

	static WebClient.Builder getWebClient(HttpClient client, int port) {
		return WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(client))
			.baseUrl("http://localhost:" + port);
	}

	static Mono<String> postHelloWorld(WebClient client) {
		return client.post()
			.uri("/test")
			.contentType(MediaType.TEXT_PLAIN)
			.body(BodyInserters.fromValue("Hello World"))
			.retrieve()
			.bodyToMono(String.class);
	}

	/** @return a {@code POST /test} of {@code Hello World} over TLS to the server under test, trusting any one */
	Mono<String> executeSslRequest() {
		return executeSslRequest(buildTrustAllSslConnector());
	}

	Mono<String> executeSslRequest(ReactorClientHttpConnector connector) {
		return postHelloWorld(WebClient.builder()
			.baseUrl("https://localhost:" + this.webServer.getPort())
			.clientConnector(connector)
			.build());
	}

	static ReactorClientHttpConnector buildTrustAllSslConnector() {
		return buildTrustAllSslConnector(null);
	}

	/**
	 * Reactor Netty's client on the JDK's TLS, trusting any certificate and presenting a key of a store on the class
	 * path, as Boot's suite builds it.
	 * @param keyStore the store's name under {@link #RESOURCES}, opened with the password {@code secret}
	 * @param keyPassword the keys' password
	 * @return the connector
	 */
	static ReactorClientHttpConnector buildTrustAllSslWithClientKeyConnector(String keyStore, String keyPassword)
			throws Exception {
		KeyStore clientKeyStore = KeyStore.getInstance(KeyStore.getDefaultType());
		try (InputStream stream = new ClassPathResource(RESOURCES + keyStore).getInputStream()) {
			clientKeyStore.load(stream, "secret".toCharArray());
		}
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(clientKeyStore, keyPassword.toCharArray());
		return buildTrustAllSslConnector(keyManagers);
	}

	private static ReactorClientHttpConnector buildTrustAllSslConnector(KeyManagerFactory keyManagers) {
		Http11SslContextSpec spec = Http11SslContextSpec.forClient()
			.configure((builder) -> builder.sslProvider(SslProvider.JDK)
				.trustManager(InsecureTrustManagerFactory.INSTANCE)
				.keyManager(keyManagers));
		return new ReactorClientHttpConnector(HttpClient.create().secure((ssl) -> ssl.sslContext(spec)));
	}

	/**
	 * Holds every request, unanswered, until {@link #completeOne()} answers the oldest or {@link #stopBlocking()}
	 * answers all, then answers new ones at once; each answer is an empty {@code 200}.
	 */
	static final class BlockingHandler implements HttpHandler {

		private final BlockingQueue<Sinks.Empty<Void>> held = new ArrayBlockingQueue<>(10);

		private volatile boolean blocking = true;

		@Override
		public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
			if (this.blocking) {
				Sinks.Empty<Void> completion = Sinks.empty();
				this.held.add(completion);
				return completion.asMono();
			}
			return Mono.empty();
		}

		void completeOne() throws InterruptedException {
			this.held.take().tryEmitEmpty();
		}

		void awaitQueue() {
			await().atMost(Duration.ofSeconds(30)).until(() -> !this.held.isEmpty());
		}

		void stopBlocking() {
			this.blocking = false;
			this.held.forEach(Sinks.Empty::tryEmitEmpty);
		}

	}

}
