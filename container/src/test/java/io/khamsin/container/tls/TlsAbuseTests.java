package io.khamsin.container.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;

import org.bouncycastle.tls.DefaultTlsClient;
import org.bouncycastle.tls.ProtocolVersion;
import org.bouncycastle.tls.ServerOnlyTlsAuthentication;
import org.bouncycastle.tls.TlsAuthentication;
import org.bouncycastle.tls.TlsClientProtocol;
import org.bouncycastle.tls.TlsServerCertificate;
import org.bouncycastle.tls.crypto.impl.bc.BcTlsCrypto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.test.TlsTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Clients that abuse TLS rather than break it: one that sends a whole ClientHello, takes the server's answer and
 * goes silent, and TLS 1.3 clients that send KeyUpdates (RFC 8446 section 4.6.3) in bursts, through Bouncy Castle's
 * client, the one JVM stack that sends a KeyUpdate when asked. BoringSSL ends a connection after 32 KeyUpdates in a
 * row without application data between them; the JDK provider sets no such limit, and a KeyUpdate costs the server
 * no more than the client (the figures are in SECURITY.md). And ClientHellos that arrive together, each costing the
 * server a signature, are answered one per pass of the reactor over its sockets, so they do not hold its requests.
 */
@Timeout(60)
class TlsAbuseTests {

	private static final int CLIENT_HELLOS = Integer.getInteger("hellos", 300);

	private static final TestCertificates certificates = TestCertificates.create();

	private static final TestCertificates.Issued localhost = certificates.server("localhost", "127.0.0.1");

	private static TlsTestServer start(TlsProvider provider, Duration handshakeTimeout) {
		return TlsTestServer.start(TlsConfig.builder(localhost.material("the localhost certificate"))
			.provider(provider)
			.handshakeTimeout(handshakeTimeout)
			.build());
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void aClientThatTakesTheServersAnswerToItsHelloAndGoesSilentIsClosedAtTheTimeout(TlsProvider provider)
			throws Exception {
		try (TlsTestServer server = start(provider, Duration.ofMillis(500));
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(clientHello(server.port()));
			InputStream in = socket.getInputStream();
			int first = in.read();
			assertThat(first).as("the server's first flight opens with a handshake record").isEqualTo(22);
			while (in.read() != -1) {
				// The rest of the server's first flight, until it closes.
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(server.figures().totals().failed(HandshakeFailure.TIMEOUT)).isEqualTo(1));
			assertThat(server.guards().count(Guard.TLS_HANDSHAKE_TIMEOUT)).isEqualTo(1);
		}
	}

	@Test
	void clientHellosThatArriveTogetherDoNotHoldTheRequestsOfTheirReactor() throws Exception {
		TestCertificates.Issued rsa = certificates.server(TestCertificates.KeyType.RSA_4096, "localhost", "127.0.0.1");
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(rsa.material("an RSA 4096 certificate")).provider(TlsProvider.OPENSSL).build())
			.build(), new TestRoutes(null).handler());
		server.start();
		List<Socket> flood = new ArrayList<>();
		try (SSLSocket client = (SSLSocket) certificates.clientContext(null)
			.getSocketFactory()
			.createSocket(InetAddress.getLoopbackAddress(), server.port())) {
			client.setSoTimeout(10_000);
			client.setTcpNoDelay(true);
			byte[] hello = clientHello(server.port());
			for (int i = 0; i < 100; i++) {
				assertThat(get(client, "/plaintext")).startsWith("HTTP/1.1 200");
			}
			for (int i = 0; i < CLIENT_HELLOS; i++) {
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
				flood.add(socket);
				socket.setSoTimeout(20_000);
				socket.getOutputStream().write(hello);
			}
			int answeredBefore = answered(flood);
			assertThat(get(client, "/plaintext")).startsWith("HTTP/1.1 200");
			// One or two each pass of the reactor over its sockets, not every one it had read before the request.
			assertThat(answered(flood) - answeredBefore).as("ClientHellos answered while a request waited")
				.isLessThan(5);
			for (Socket socket : flood) {
				assertThat(socket.getInputStream().read()).as("the first byte of the server's first flight")
					.isEqualTo(22);
			}
		}
		finally {
			for (Socket socket : flood) {
				socket.close();
			}
			server.stop();
		}
	}

	/** How many of the sockets have the server's first flight waiting to be read. */
	private static int answered(List<Socket> sockets) throws IOException {
		int answered = 0;
		for (Socket socket : sockets) {
			answered += (socket.getInputStream().available() > 0) ? 1 : 0;
		}
		return answered;
	}

	/** Sends a GET on a keep-alive connection and reads its response, whose head it returns. */
	private static String get(Socket socket, String path) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return readResponse(socket.getInputStream());
	}

	private static String readResponse(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("the server closed the connection");
			}
			head.append((char) b);
		}
		String lower = head.toString().toLowerCase(Locale.ROOT);
		int at = lower.indexOf("content-length:");
		int length = (at < 0) ? 0 : Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).trim());
		in.readNBytes(length);
		return head.toString();
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void keyUpdatesInBurstsOf31BetweenRequestsLeaveTheConnectionServing(TlsProvider provider) throws Exception {
		try (TlsTestServer server = start(provider, TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT);
				KeyUpdatingClient client = KeyUpdatingClient.connect(server.port())) {
			for (int request = 0; request < 5; request++) {
				client.keyUpdates(31);
				assertThat(client.get("/after-key-updates")).startsWith("HTTP/1.1 200");
			}
		}
	}

	@Test
	void thirtyThreeKeyUpdatesInARowEndTheConnectionOnBoringSslWhichServesTheNextClient() throws Exception {
		try (TlsTestServer server = start(TlsProvider.OPENSSL, TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT)) {
			try (KeyUpdatingClient client = KeyUpdatingClient.connect(server.port())) {
				assertThat(client.get("/before")).startsWith("HTTP/1.1 200");
				assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
					client.keyUpdates(33);
					client.get("/after");
				});
			}
			try (KeyUpdatingClient next = KeyUpdatingClient.connect(server.port())) {
				assertThat(next.get("/next")).startsWith("HTTP/1.1 200");
			}
		}
	}

	@Test
	void theJdkProviderTakesLongerBurstsOfKeyUpdates() throws Exception {
		try (TlsTestServer server = start(TlsProvider.JDK, TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT);
				KeyUpdatingClient client = KeyUpdatingClient.connect(server.port())) {
			client.keyUpdates(200);
			assertThat(client.get("/after")).startsWith("HTTP/1.1 200");
		}
	}

	/** The first record of a JDK TLS 1.3 client: its ClientHello, with a key share the server answers at once. */
	private static byte[] clientHello(int port) throws Exception {
		SSLContext context = SSLContext.getInstance("TLSv1.3");
		context.init(null, null, new SecureRandom());
		SSLEngine engine = context.createSSLEngine("localhost", port);
		engine.setUseClientMode(true);
		engine.setEnabledProtocols(new String[] { "TLSv1.3" });
		ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
		engine.beginHandshake();
		engine.wrap(ByteBuffer.allocate(0), out);
		out.flip();
		byte[] bytes = new byte[out.remaining()];
		out.get(bytes);
		return bytes;
	}

	/** A TLS 1.3 client on Bouncy Castle, whose protocol's KeyUpdate sender a subclass makes reachable. */
	private static final class KeyUpdatingClient extends TlsClientProtocol implements AutoCloseable {

		private KeyUpdatingClient(Socket socket) throws IOException {
			super(socket.getInputStream(), socket.getOutputStream());
		}

		static KeyUpdatingClient connect(int port) throws IOException {
			Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
			socket.setSoTimeout(10_000);
			KeyUpdatingClient client = new KeyUpdatingClient(socket);
			client.connect(new DefaultTlsClient(new BcTlsCrypto(new SecureRandom())) {

				@Override
				protected ProtocolVersion[] getSupportedVersions() {
					return ProtocolVersion.TLSv13.only();
				}

				@Override
				public TlsAuthentication getAuthentication() {
					return new ServerOnlyTlsAuthentication() {

						@Override
						public void notifyServerCertificate(TlsServerCertificate certificate) {
						}

					};
				}

			});
			return client;
		}

		/** Sends {@code count} KeyUpdates in a row, each asking the server to update its keys too. */
		void keyUpdates(int count) throws IOException {
			for (int i = 0; i < count; i++) {
				send13KeyUpdate(true);
			}
		}

		/** Sends a GET and reads its response, whose head it returns. */
		String get(String path) throws IOException {
			OutputStream out = getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			return readResponse(getInputStream());
		}

	}

}
