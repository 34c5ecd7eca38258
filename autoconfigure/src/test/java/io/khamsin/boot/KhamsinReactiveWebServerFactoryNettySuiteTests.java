package io.khamsin.boot;

import java.net.ConnectException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.net.ssl.SSLPeerUnverifiedException;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties.ForwardHeadersStrategy;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;

import io.khamsin.boot.autoconfigure.KhamsinForwardedHeadersCustomizer;
import io.khamsin.boot.forwarded.KhamsinForwardedProperties;
import io.khamsin.container.forwarded.ForwardedConfig;
import io.khamsin.container.transport.KhamsinServerCustomizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The cases Spring Boot adds to its reactive factory suite for Reactor Netty
 * ({@code NettyReactiveWebServerFactoryTests} in {@code spring-boot-reactor-netty}, Boot 4.0.7), run against
 * {@link KhamsinReactiveWebServerFactory}, which serves on Netty too. Boot does not publish those tests, so this is
 * khamsin's own rewrite of them: test for test under Boot's names, with Boot's clients. The cases of Boot's suite for
 * every factory are in {@link KhamsinReactiveWebServerFactorySuiteTests}.
 * <p>
 * Left out, because they test a part of Reactor Netty that khamsin has no counterpart of:
 * {@code getPortWhenDisposableServerPortOperationIsUnsupportedReturnsMinusOne} (it swaps in, through a package-private
 * hook of Boot's factory, a Reactor Netty {@code DisposableServer} whose address has no port; a khamsin server always
 * listens on a TCP port, and its port is {@code -1} only when it is not running, which
 * {@link KhamsinWebServerTests} checks), {@code resourceFactoryAndWebServerLifecycle} (it shares the event loops of
 * Spring's {@code ReactorResourceFactory} with the server and restarts them under it; khamsin makes its own reactors
 * at each start and takes no resource factory) and {@code startedLogMessageWithMultiplePorts} (disabled by Boot for
 * Reactor Netty, which has one port, as khamsin has). Boot 4.1's {@code useRfcForwardHeader} and
 * {@code useForwardHeadersTakesPrecedenceOverUseRfcForwardHeader} test a setting that Boot 4.0.7 does not have.
 */
class KhamsinReactiveWebServerFactoryNettySuiteTests extends AbstractKhamsinReactiveWebServerFactorySuiteTests {

	private static final HttpHandler SCHEME = (request, response) -> response.writeWith(Mono
		.just(response.bufferFactory().wrap(request.getURI().getScheme().getBytes(StandardCharsets.UTF_8))));

	@Test
	void portInUseExceptionIsThrownWhenPortIsAlreadyInUse() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setPort(0);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		factory.setPort(this.webServer.getPort());
		assertThatExceptionOfType(PortInUseException.class).isThrownBy(factory.getWebServer(ECHO)::start)
			.satisfies((ex) -> assertThat(ex.getPort()).isEqualTo(this.webServer.getPort()))
			.withCauseInstanceOf(Throwable.class);
	}

	// Boot added this case when its Netty server stopped reporting an address that cannot be assigned as a port in
	// use; PortInUseException is a WebServerException, so that it is not one is asserted too.
	@Test
	void webServerExceptionIsThrownWhenAddressCannotBeAssigned() throws Exception {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setPort(8080);
		// TEST-NET-1 (RFC 5737): reserved for documentation, so no interface of this machine has it.
		factory.setAddress(InetAddress.getByName("192.0.2.1"));
		assertThatExceptionOfType(WebServerException.class).isThrownBy(factory.getWebServer(ECHO)::start)
			.isNotInstanceOf(PortInUseException.class);
	}

	// Boot's NettyServerCustomizers customize Reactor Netty's HttpServer once, when the server is made; khamsin's
	// KhamsinServerCustomizers customize Netty's ServerBootstrap when the server binds, once for each listening
	// socket (one per reactor with SO_REUSEPORT), so the server is started and each bootstrap is checked.
	@Test
	void nettyCustomizers() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		Map<ServerBootstrap, List<String>> applied = Collections.synchronizedMap(new IdentityHashMap<>());
		KhamsinServerCustomizer first = (bootstrap) -> applied.computeIfAbsent(bootstrap, (key) -> new ArrayList<>())
			.add("first");
		KhamsinServerCustomizer second = (bootstrap) -> applied.computeIfAbsent(bootstrap, (key) -> new ArrayList<>())
			.add("second");
		factory.setServerCustomizers(List.of(first, second));
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		int sockets = ((KhamsinWebServer) this.webServer).getKhamsinServer().listeners().get(0).sockets();
		assertThat(applied).hasSize(sockets);
		assertThat(applied.values()).allSatisfy((names) -> assertThat(names).containsExactly("first", "second"));
	}

	// Boot's factory is told setUseForwardHeaders(true); khamsin's is customized as server.forward-headers-strategy
	// =native has the auto-configuration do it, trusting the default proxies, the loopback client among them.
	@Test
	void useForwardedHeaders() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		ServerProperties serverProperties = new ServerProperties();
		serverProperties.setForwardHeadersStrategy(ForwardHeadersStrategy.NATIVE);
		new KhamsinForwardedHeadersCustomizer(serverProperties,
				new KhamsinForwardedProperties(ForwardedConfig.DEFAULT_TRUSTED_PROXIES), new MockEnvironment())
			.customize(factory);
		this.webServer = factory.getWebServer(SCHEME);
		this.webServer.start();
		String body = getWebClient(this.webServer.getPort()).build()
			.get()
			.header("X-Forwarded-Proto", "https")
			.retrieve()
			.bodyToMono(String.class)
			.block(Duration.ofSeconds(30));
		assertThat(body).isEqualTo("https");
	}

	@Test
	void whenSslIsConfiguredWithAValidAliasARequestSucceeds() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		Ssl ssl = new Ssl();
		ssl.setKeyStore("classpath:" + RESOURCES + "test.jks");
		ssl.setKeyPassword("password");
		ssl.setKeyAlias("test-alias");
		factory.setSsl(ssl);
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		assertThat(executeSslRequest().block(Duration.ofSeconds(30))).isEqualTo("Hello World");
	}

	// Boot asks only that a request succeeds after the update; which certificate each request was served is asserted
	// too, so that a server that kept the first bundle fails.
	@Test
	void whenSslBundleIsUpdatedThenSslIsReloaded() {
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("bundle1", createSslBundle("ed25519-1"));
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setSslBundles(bundles);
		factory.setSsl(Ssl.forBundle("bundle1"));
		this.webServer = factory.getWebServer(ECHO);
		this.webServer.start();
		List<String> served = new CopyOnWriteArrayList<>();
		assertThat(executeSslRequest(recordingServedCertificate(served)).block(Duration.ofSeconds(30)))
			.isEqualTo("Hello World");
		bundles.updateBundle("bundle1", createSslBundle("ed25519-2"));
		assertThat(executeSslRequest(recordingServedCertificate(served)).block(Duration.ofSeconds(30)))
			.isEqualTo("Hello World");
		assertThat(served).containsExactly("CN=ed25519-1,O=khamsin", "CN=ed25519-2,O=khamsin");
	}

	private static SslBundle createSslBundle(String name) {
		return SslBundle.of(new PemSslStoreBundle(new PemSslStoreDetails(null, "classpath:" + RESOURCES + name + ".crt",
				"classpath:" + RESOURCES + name + ".key"), null));
	}

	/** Boot's trust-all client, recording the subject of the certificate each response came over. */
	private static ReactorClientHttpConnector recordingServedCertificate(List<String> served) {
		Http11SslContextSpec spec = Http11SslContextSpec.forClient()
			.configure((builder) -> builder.sslProvider(SslProvider.JDK)
				.trustManager(InsecureTrustManagerFactory.INSTANCE));
		HttpClient client = HttpClient.create()
			.secure((ssl) -> ssl.sslContext(spec))
			.doOnResponse((response, connection) -> served
				.add(subject(connection.channel().pipeline().get(SslHandler.class))));
		return new ReactorClientHttpConnector(client);
	}

	private static String subject(SslHandler ssl) {
		try {
			Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
			return ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
		}
		catch (SSLPeerUnverifiedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void whenServerIsShuttingDownGracefullyThenNewConnectionsCannotBeMade() {
		KhamsinReactiveWebServerFactory factory = getFactory();
		factory.setShutdown(Shutdown.GRACEFUL);
		BlockingHandler blockingHandler = new BlockingHandler();
		this.webServer = factory.getWebServer(blockingHandler);
		this.webServer.start();
		WebClient webClient = getWebClient(this.webServer.getPort()).build();
		this.webServer.shutDownGracefully((result) -> {
		});
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			blockingHandler.stopBlocking();
			try {
				webClient.get().retrieve().toBodilessEntity().block();
				return false;
			}
			catch (RuntimeException ex) {
				return ex.getCause() instanceof ConnectException;
			}
		});
		this.webServer.stop();
	}

}
