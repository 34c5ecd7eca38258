package io.khamsin.actuate.endpoint;

import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.actuate.endpoint.KhamsinEndpoint.CertificateDescriptor;
import io.khamsin.actuate.endpoint.KhamsinEndpoint.HandshakesDescriptor;
import io.khamsin.actuate.endpoint.KhamsinEndpoint.KhamsinDescriptor;
import io.khamsin.actuate.endpoint.KhamsinEndpoint.QuicDescriptor;
import io.khamsin.actuate.endpoint.KhamsinEndpoint.SocketDescriptor;
import io.khamsin.actuate.endpoint.KhamsinEndpoint.TlsDescriptor;
import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.egress.EgressMode;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;
import io.khamsin.container.metrics.QuicSnapshot;
import io.khamsin.container.metrics.ReactorSnapshot;
import io.khamsin.container.test.H3Client;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;
import io.khamsin.container.tls.TlsClientAuth;
import io.khamsin.container.tls.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * {@code /actuator/khamsin} tells what the running server does, read from the server: the protocols its listeners
 * offer, their TLS (provider and why, versions, certificates, handshakes), and the egress modes they allow; nothing
 * when khamsin does not serve the context.
 */
class KhamsinEndpointTests {

	private final KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());

	@Test
	void aRunningServerReportsWhatItsListenersOffer() {
		try (ReactiveWebServerApplicationContext context = new ReactiveWebServerApplicationContext()) {
			context.registerBean("webServerFactory", KhamsinReactiveWebServerFactory.class,
					() -> new KhamsinReactiveWebServerFactory(0));
			context.registerBean("httpHandler", HttpHandler.class, () -> (request, response) -> response.setComplete());
			context.refresh();
			KhamsinDescriptor khamsin = new KhamsinEndpoint(this.metrics, context).khamsin();
			assertThat(khamsin.protocols()).containsExactly("http/1.1");
			assertThat(khamsin.server().listeners()).singleElement().satisfies((listener) -> {
				assertThat(listener.port()).isEqualTo(khamsin.server().port());
				assertThat(listener.protocols()).containsExactly("http/1.1");
				assertThat(listener.tls()).isEqualTo("none");
				assertThat(listener.sockets()).isPositive();
			});
			assertThat(khamsin.tls().provider()).isEqualTo("none");
			assertThat(khamsin.tls().reason()).contains("no listener serves TLS");
			assertThat(khamsin.egress()).filteredOn(EgressMode::available)
				.extracting(EgressMode::mode)
				.containsExactly("sendfile", "userspace");
			assertThat(mode(khamsin, "sendfile").reason()).contains("on " + khamsin.server().transport());
			assertThat(mode(khamsin, "ktls").reason()).contains("no listener serves TLS");
		}
	}

	@Test
	void aServerOverTlsReportsItsProviderCertificatesAndHandshakes() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TestCertificates.Issued localhost = certificates.server("localhost");
		TestCertificates.Issued api = certificates.server("api.khamsin.test");
		TlsConfig tls = TlsConfig.builder(localhost.material("SSL bundle 'web'"))
			.serverName("api.khamsin.test", api.material("SSL bundle 'api'"))
			.clientAuth(TlsClientAuth.WANT)
			.build();
		try (ReactiveWebServerApplicationContext context = new ReactiveWebServerApplicationContext()) {
			KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
			factory.addConfigCustomizers((config) -> config.tls(tls));
			context.registerBean("webServerFactory", KhamsinReactiveWebServerFactory.class, () -> factory);
			context.registerBean("httpHandler", HttpHandler.class, () -> (request, response) -> response.setComplete());
			context.refresh();
			int port = ((KhamsinWebServer) context.getWebServer()).getPort();
			try (TlsClient client = TlsClient.connect(certificates.clientContext(null), port, "localhost", "TLSv1.3")) {
				client.get("/");
			}
			try (RawHttpConnection connection = new RawHttpConnection(port)) {
				connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
				assertThat(connection.read().status()).isEqualTo(400);
			}
			new Socket("127.0.0.1", port).close();
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				HandshakesDescriptor handshakes = new KhamsinEndpoint(this.metrics, context).khamsin().tls().handshakes();
				assertThat(handshakes.full()).isEqualTo(1);
				assertThat(handshakes.failed()).containsEntry("cleartext", 1L)
					.containsEntry("timeout", 0L)
					.containsEntry("closed", 0L);
				assertThat(handshakes.closedBeforeHello()).isEqualTo(1);
			});
			KhamsinDescriptor khamsin = new KhamsinEndpoint(this.metrics, context).khamsin();
			assertThat(khamsin.server().listeners()).singleElement()
				.satisfies((listener) -> assertThat(listener.tls()).startsWith("BoringSSL"));
			TlsDescriptor served = khamsin.tls();
			assertThat(served.provider()).startsWith("BoringSSL");
			assertThat(served.reason()).isEqualTo("served on port(s) " + port + "; netty-tcnative loaded");
			assertThat(served.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
			assertThat(served.alpn()).containsExactly("http/1.1");
			assertThat(served.clientAuth()).isEqualTo("want");
			assertThat(served.certificates()).extracting(CertificateDescriptor::serverName, CertificateDescriptor::source,
					CertificateDescriptor::subject)
				.containsExactly(tuple(null, "SSL bundle 'web'", "CN=localhost"),
						tuple("api.khamsin.test", "SSL bundle 'api'", "CN=api.khamsin.test"));
			assertThat(served.certificates().get(0).notAfter()).isEqualTo(localhost.certificate().getNotAfter().toInstant());
			assertThat(mode(khamsin, "sendfile").available()).isFalse();
			assertThat(mode(khamsin, "ktls").reason()).startsWith("khamsin.egress.ktls=auto: ");
		}
	}

	@Test
	void aServerOverHttp3ReportsItsUdpSocketsAndTheOpenConnectionsAndStreamsOfEachReactor() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TlsConfig tls = TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("localhost")).build();
		CompletableFuture<Void> gate = new CompletableFuture<>();
		try (ReactiveWebServerApplicationContext context = new ReactiveWebServerApplicationContext()) {
			KhamsinReactiveWebServerFactory factory = new KhamsinReactiveWebServerFactory(0);
			factory.setMetrics(this.metrics);
			factory.addConfigCustomizers(
					(config) -> config.tls(tls).reactors(2).http3(Http3Config.builder().enabled(true).build()));
			context.registerBean("webServerFactory", KhamsinReactiveWebServerFactory.class, () -> factory);
			context.registerBean("httpHandler", HttpHandler.class,
					() -> (request, response) -> Mono.fromFuture(gate).then(response.setComplete()));
			context.refresh();
			int port = ((KhamsinWebServer) context.getWebServer()).getPort();
			KhamsinEndpoint endpoint = new KhamsinEndpoint(this.metrics, context);
			List<String> reactors = endpoint.khamsin().reactors().stream().map(ReactorSnapshot::name).toList();
			assertThat(endpoint.khamsin().server().listeners()).hasSize(2).last().satisfies((udp) -> {
				assertThat(udp.port()).isEqualTo(port);
				assertThat(udp.protocols()).containsExactly("h3");
				assertThat(udp.boundSockets()).hasSize(udp.sockets()).allSatisfy((socket) -> {
					assertThat(socket.type()).isEqualTo("udp");
					assertThat(socket.port()).isEqualTo(port);
					assertThat(socket.transport()).isEqualTo(endpoint.khamsin().server().transport());
					assertThat(socket.reactor()).isIn(reactors);
				});
				// One socket per reactor where SO_REUSEPORT is offered (io_uring, epoll), else one.
				assertThat(udp.sockets()).isIn(1, reactors.size());
				assertThat(udp.boundSockets()).extracting(SocketDescriptor::reactor).doesNotHaveDuplicates();
			});
			assertThat(endpoint.khamsin().server().listeners().get(0).boundSockets())
				.extracting(SocketDescriptor::type)
				.containsOnly("tcp");
			assertThat(endpoint.khamsin().quic().totals().connectionsOpen()).isZero();
			try (H3Client client = new H3Client(port, certificates.ca())) {
				CompletableFuture<H3Client.Response> held = client.sendAsync("GET", "/", null, (headers) -> {
				});
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					QuicDescriptor quic = endpoint.khamsin().quic();
					assertThat(quic.totals().connectionsOpen()).isEqualTo(1);
					assertThat(quic.totals().streamsOpen()).isEqualTo(1);
					assertThat(quic.reactors()).extracting(QuicSnapshot::name).containsExactlyElementsOf(reactors);
					assertThat(quic.reactors()).filteredOn((reactor) -> reactor.connectionsOpen() == 1)
						.singleElement()
						.satisfies((reactor) -> assertThat(reactor.streamsOpen()).isEqualTo(1));
				});
				gate.complete(null);
				assertThat(held.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(endpoint.khamsin().quic().totals().streamsOpen()).isZero());
			}
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				QuicSnapshot totals = endpoint.khamsin().quic().totals();
				assertThat(totals.connectionsOpen()).isZero();
				assertThat(totals.connections()).isEqualTo(1);
				assertThat(totals.streams()).isEqualTo(1);
			});
		}
	}

	@Test
	void aServerWithoutHttp3HasNoQuicFigures() {
		try (ReactiveWebServerApplicationContext context = new ReactiveWebServerApplicationContext()) {
			context.registerBean("webServerFactory", KhamsinReactiveWebServerFactory.class,
					() -> new KhamsinReactiveWebServerFactory(0));
			context.registerBean("httpHandler", HttpHandler.class, () -> (request, response) -> response.setComplete());
			context.refresh();
			assertThat(new KhamsinEndpoint(this.metrics, context).khamsin().quic()).isNull();
		}
	}

	@Test
	void withoutAKhamsinServerNothingIsServed() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.refresh();
			KhamsinDescriptor khamsin = new KhamsinEndpoint(this.metrics, context).khamsin();
			assertThat(khamsin.server()).isNull();
			assertThat(khamsin.protocols()).isEmpty();
			assertThat(khamsin.tls()).isNull();
			assertThat(khamsin.egress()).isEmpty();
		}
	}

	private static EgressMode mode(KhamsinDescriptor khamsin, String mode) {
		return khamsin.egress().stream().filter((egress) -> egress.mode().equals(mode)).findFirst().orElseThrow();
	}

}
