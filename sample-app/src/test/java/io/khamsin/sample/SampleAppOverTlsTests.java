package io.khamsin.sample;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.LeakDetectionExtension;
import io.khamsin.container.test.RawHttpConnection;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TlsClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sample app on khamsin over TLS as {@code server.ssl.*} and SSL bundles configure it, with real clients: curl and
 * the JDK's HttpClient over TLS 1.3 and 1.2, {@code openssl s_client} for what is negotiated and for a resumed
 * session, which {@code /actuator/khamsin} and the meters count as resumed; the bundle of the SNI host name; client
 * authentication wanted, with and without a certificate; WebSocket and server-sent events; a certificate replaced on
 * disk and served to the next connection; a multipart form, and clients that leave in the middle of one; and cleartext to the TLS port refused with a 400.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SampleAppOverTlsTests {

	private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

	private static final JsonMapper json = JsonMapper.builder().build();

	private static TlsSampleApp app;

	@BeforeAll
	static void start() {
		app = new TlsSampleApp(Container.KHAMSIN);
	}

	@AfterAll
	static void stop() {
		app.close();
	}

	@Test
	void theJdkHttpClientIsServedOverTls13AndTls12() throws Exception {
		for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
			HttpResponse<String> response = client(protocol).send(HttpRequest.newBuilder(app.uri("/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("Hello, World!");
			assertThat(response.sslSession().orElseThrow().getProtocol()).isEqualTo(protocol);
			byte[] order;
			try (var in = SampleAppOverTlsTests.class.getResourceAsStream("/order.json")) {
				order = in.readAllBytes();
			}
			HttpResponse<String> confirmation = client(protocol).send(HttpRequest.newBuilder(app.uri("/json"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(order))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(confirmation.statusCode()).as(confirmation.body()).isEqualTo(200);
			assertThat(confirmation.body()).contains("\"status\":\"ACCEPTED\"");
		}
	}

	@Test
	void curlIsServedOverTls13AndTls12() {
		CommandLine.assumeInstalled("curl", "curl");
		for (List<String> version : List.of(List.of("--tlsv1.3"), List.of("--tlsv1.2", "--tls-max", "1.2"))) {
			List<String> command = new ArrayList<>(List.of("curl", "-sS", "--cacert", app.caPem().toString(), "-w",
					" %{ssl_verify_result}"));
			command.addAll(version);
			command.add(app.uri("/plaintext").toString());
			CommandLine.Result result = CommandLine.run(null, TOOL_TIMEOUT, command);
			assertThat(result.exitCode()).as(result.toString()).isZero();
			assertThat(result.output()).isEqualTo("Hello, World! 0");
		}
	}

	@Test
	void opensslIsOfferedTls13AndStrongTls12SuitesWithHttp11ByAlpn() {
		CommandLine.assumeInstalled("openssl", "openssl");
		CommandLine.Result tls13 = sClient("-tls1_3", "-alpn", "h2,http/1.1");
		assertThat(tls13.find("(?:New|Reused), (TLSv1\\.[0-9]), Cipher is")).as(tls13.toString()).isEqualTo("TLSv1.3");
		assertThat(tls13.find("Cipher is (\\S+)")).isIn("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
				"TLS_CHACHA20_POLY1305_SHA256");
		assertThat(tls13.output()).contains("ALPN protocol: http/1.1", "Verify return code: 0 (ok)");
		CommandLine.Result tls12 = sClient("-tls1_2");
		assertThat(tls12.find("Cipher is (\\S+)")).as(tls12.toString())
			.matches("ECDHE-ECDSA-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)");
		CommandLine.Result tls11 = sClient("-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0");
		assertThat(tls11.exitCode()).as(tls11.toString()).isNotZero();
	}

	@Test
	void aResumedHandshakeIsCountedAsResumedInTheActuatorAndTheMeters() throws Exception {
		CommandLine.assumeInstalled("openssl", "openssl");
		Path session = Files.createTempFile("khamsin-session-", ".pem");
		try {
			long fullBefore = handshakes().path("full").asLong();
			long resumedBefore = handshakes().path("resumed").asLong();
			CommandLine.Result first = sClientWithRequest("-sess_out", session.toString());
			assertThat(first.output()).as(first.toString()).contains("New, TLSv1.3", "HTTP/1.1 200 OK");
			CommandLine.Result second = sClientWithRequest("-sess_in", session.toString());
			assertThat(second.output()).as(second.toString()).contains("Reused, TLSv1.3", "HTTP/1.1 200 OK");
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				assertThat(handshakes().path("resumed").asLong()).isEqualTo(resumedBefore + 1);
				assertThat(handshakes().path("full").asLong()).isGreaterThanOrEqualTo(fullBefore + 1);
			});
			assertThat(get("/actuator/prometheus")).containsPattern(
					"khamsin_tls_handshakes_total\\{[^}]*result=\"resumed\"[^}]*} " + (resumedBefore + 1) + ".0");
		}
		finally {
			Files.deleteIfExists(session);
		}
	}

	@Test
	void theServerNameBundleIsServedToTheHostNameThatAsksForIt() throws Exception {
		assertThat(served(TlsSampleApp.API_HOST)).isEqualTo(app.api().certificate());
		assertThat(served("localhost")).isEqualTo(served(null));
		assertThat(served("localhost")).isNotEqualTo(app.api().certificate());
	}

	@Test
	void clientAuthWantServesAClientWithItsCertificateAndOneWithout() throws Exception {
		TestCertificates.Issued alice = app.certificates().client("alice");
		try (TlsClient client = TlsClient.connect(app.clientContext(alice), app.port(), "localhost", "TLSv1.3")) {
			assertThat(client.get("/tls/session")).isEqualTo("HTTP/1.1 200 OK\nscheme=https peer=CN=alice");
		}
		try (TlsClient client = TlsClient.connect(app.clientContext(null), app.port(), "localhost", "TLSv1.2")) {
			assertThat(client.get("/tls/session")).isEqualTo("HTTP/1.1 200 OK\nscheme=https peer=none");
		}
	}

	@Test
	void aWebSocketEchoesOverTls() throws Exception {
		LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
		CompletableFuture<Integer> closed = new CompletableFuture<>();
		StringBuilder message = new StringBuilder();
		WebSocket socket = client("TLSv1.3").newWebSocketBuilder()
			.buildAsync(app.webSocketUri("/ws/echo"), new WebSocket.Listener() {

				@Override
				public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
					// A long message may arrive in parts: a text message is what lies between two last parts.
					message.append(data);
					if (last) {
						received.add(message.toString());
						message.setLength(0);
					}
					webSocket.request(1);
					return null;
				}

				@Override
				public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
					closed.complete(statusCode);
					return null;
				}

			})
			.get(10, TimeUnit.SECONDS);
		String longText = "0123456789".repeat(5_000);
		socket.sendText("over tls", true).get(10, TimeUnit.SECONDS);
		assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("over tls");
		socket.sendText(longText, true).get(10, TimeUnit.SECONDS);
		assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo(longText);
		socket.sendClose(4000, "done").get(10, TimeUnit.SECONDS);
		assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(4000);
	}

	@Test
	void serverSentEventsArriveOverTls() throws Exception {
		HttpResponse<Stream<String>> response = client("TLSv1.3").send(
				HttpRequest.newBuilder(app.uri("/sse?count=3&period=50")).build(), HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		try (Stream<String> lines = response.body()) {
			assertThat(lines.filter((line) -> line.startsWith("data:")).limit(3).count()).isEqualTo(3);
		}
	}

	@Test
	void actuatorKhamsinTellsTheProviderVersionsAndCertificates() throws Exception {
		JsonNode tls = json.readTree(get("/actuator/khamsin")).path("tls");
		assertThat(tls.path("provider").asString()).startsWith("BoringSSL");
		assertThat(tls.path("reason").asString()).endsWith("netty-tcnative loaded");
		assertThat(tls.path("protocols").toString()).isEqualTo("[\"TLSv1.3\",\"TLSv1.2\"]");
		assertThat(tls.path("alpn").toString()).isEqualTo("[\"http/1.1\"]");
		assertThat(tls.path("clientAuth").asString()).isEqualTo("want");
		assertThat(tls.path("certificates").toString()).contains("\"source\":\"SSL bundle 'web'\"",
				"\"serverName\":\"api.khamsin.test\"", "\"source\":\"SSL bundle 'api' of server name api.khamsin.test\"");
	}

	@Test
	void plainHttpToTheTlsPortIsRefusedWithA400() throws Exception {
		try (RawHttpConnection connection = new RawHttpConnection(app.port())) {
			RawHttpConnection.Response response = connection
				.send("GET /plaintext HTTP/1.1\r\nHost: localhost:" + app.port() + "\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(400);
			assertThat(response.bodyText()).contains("https://localhost:" + app.port() + "/");
		}
	}

	@Test
	void aCertificateReplacedOnDiskIsServedToTheNextConnectionWithoutARestart() throws Exception {
		try (TlsSampleApp reloading = new TlsSampleApp(Container.KHAMSIN)) {
			X509Certificate first = served(reloading, "localhost");
			assertThat(first).isEqualTo(reloading.web().certificate());
			try (TlsClient open = TlsClient.connect(reloading.clientContext(null), reloading.port(), "localhost",
					"TLSv1.3")) {
				TestCertificates.Issued renewed = reloading.renewWebCertificate();
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(200))
					.untilAsserted(() -> assertThat(served(reloading, "localhost")).isEqualTo(renewed.certificate()));
				// A connection opened before the swap goes on with the certificate it started with.
				assertThat(open.serverCertificate()).isEqualTo(first);
				assertThat(open.get("/plaintext")).isEqualTo("HTTP/1.1 200 OK\nHello, World!");
			}
			// The certificate the SNI name has is its own bundle's, unchanged.
			assertThat(served(reloading, TlsSampleApp.API_HOST)).isEqualTo(reloading.api().certificate());
		}
	}

	@Test
	void aClientThatDoesNotTrustTheCertificateIsCountedAsAFailedHandshake() throws Exception {
		long before = handshakes().path("failed").path("certificate-refused").asLong()
				+ handshakes().path("failed").path("closed").asLong();
		HttpClient stranger = HttpClients.builder().sslContext(TestCertificates.create("another CA").clientContext(null))
			.build();
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> stranger
			.send(HttpRequest.newBuilder(app.uri("/plaintext")).build(), HttpResponse.BodyHandlers.ofString()));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
				handshakes().path("failed").path("certificate-refused").asLong()
						+ handshakes().path("failed").path("closed").asLong()).isGreaterThan(before));
	}

	@Test
	void aMultipartFormArrivesWholeOverTlsAndClientsThatLeaveMidFormLeakNothing() throws Exception {
		MultipartUploads form = new MultipartUploads();
		int mark = LeakDetectionExtension.mark();
		for (int i = 0; i < 5; i++) {
			SSLSocket socket = (SSLSocket) app.clientContext(null).getSocketFactory().createSocket("localhost", app.port());
			socket.startHandshake();
			form.sendHalfAndLeave(socket);
		}
		HttpResponse<String> response = client("TLSv1.3").send(HttpRequest.newBuilder(app.uri("/upload/parts"))
			.header("Content-Type", MultipartUploads.CONTENT_TYPE)
			.POST(HttpRequest.BodyPublishers.ofByteArray(form.body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		form.assertAnswered(response.body());
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

	private static HttpClient client(String protocol) {
		SSLParameters parameters = new SSLParameters();
		parameters.setProtocols(new String[] { protocol });
		return HttpClients.builder().sslContext(app.clientContext(null)).sslParameters(parameters).build();
	}

	private static String get(String path) throws Exception {
		HttpResponse<String> response = client("TLSv1.3").send(HttpRequest.newBuilder(app.uri(path)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static JsonNode handshakes() throws Exception {
		return json.readTree(get("/actuator/khamsin")).path("tls").path("handshakes");
	}

	private static X509Certificate served(String serverName) throws IOException {
		return served(app, serverName);
	}

	private static X509Certificate served(TlsSampleApp app, String serverName) throws IOException {
		try (TlsClient client = TlsClient.connect(app.clientContext(null), app.port(), serverName, "TLSv1.3")) {
			return client.serverCertificate();
		}
	}

	private static CommandLine.Result sClient(String... options) {
		List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + app.port(),
				"-servername", "localhost", "-CAfile", app.caPem().toString()));
		command.addAll(List.of(options));
		return CommandLine.run("", TOOL_TIMEOUT, command);
	}

	private static CommandLine.Result sClientWithRequest(String... options) {
		List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + app.port(),
				"-servername", "localhost", "-CAfile", app.caPem().toString(), "-tls1_3", "-ign_eof"));
		command.addAll(List.of(options));
		return CommandLine.run("GET /plaintext HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", TOOL_TIMEOUT,
				command);
	}

}
