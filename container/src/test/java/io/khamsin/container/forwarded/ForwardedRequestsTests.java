package io.khamsin.container.forwarded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.forward-headers-strategy=native} on a real server: what a request tells the application (its URI,
 * context path and client address) follows the headers of a trusted proxy, and ignores those of any other peer, or
 * of every peer when forwarded headers are off.
 */
@Timeout(30)
class ForwardedRequestsTests {

	private static final HttpHandler ORIGIN = (request, response) -> {
		InetSocketAddress remote = request.getRemoteAddress();
		String body = "uri=" + request.getURI() + "\ncontext=" + request.getPath().contextPath().value()
				+ "\npath=" + request.getPath().pathWithinApplication().value() + "\nclient="
				+ ((remote != null) ? remote.getHostString() : "none") + "\n";
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
	};

	private KhamsinServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	private void start(ForwardedConfig forwarded) {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).forwarded(forwarded).build(),
				ORIGIN);
		this.server.start();
	}

	@Test
	void xForwardedHeadersOfATrustedProxySetTheSchemeHostPortClientAndContextPath() throws Exception {
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		String origin = get("/orders/7?page=2", "X-Forwarded-Proto: https", "X-Forwarded-Host: shop.example.com",
				"X-Forwarded-Port: 8443", "X-Forwarded-For: 203.0.113.9, 10.1.2.3", "X-Forwarded-Prefix: /api");
		assertThat(origin).isEqualTo("uri=https://shop.example.com:8443/api/orders/7?page=2\ncontext=/api\n"
				+ "path=/orders/7\nclient=203.0.113.9\n");
	}

	@Test
	void theForwardedHeaderOfATrustedProxyWinsOverXForwarded() throws Exception {
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		String origin = get("/", "Forwarded: for=\"[2001:db8::17]:4711\";proto=https;host=shop.example.com",
				"X-Forwarded-Proto: http", "X-Forwarded-Host: other.example.com");
		assertThat(origin).startsWith("uri=https://shop.example.com/\ncontext=\n").endsWith("client=2001:db8:0:0:0:0:0:17\n");
	}

	@Test
	void aSchemeAloneKeepsTheHostTheClientAskedFor() throws Exception {
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		assertThat(get("/a", "X-Forwarded-Proto: https")).startsWith("uri=https://localhost/a\n");
		assertThat(get("/a", "Forwarded: proto=https")).startsWith("uri=https://localhost/a\n");
	}

	@Test
	void aPeerThatIsNotATrustedProxyIsTakenAsItCame() throws Exception {
		start(ForwardedConfig.trusting(List.of("10.0.0.0/8")));
		String origin = get("/a", "X-Forwarded-Proto: https", "X-Forwarded-Host: shop.example.com",
				"X-Forwarded-For: 203.0.113.9", "X-Forwarded-Prefix: /api");
		assertThat(origin).isEqualTo("uri=http://localhost/a\ncontext=\npath=/a\nclient=127.0.0.1\n");
	}

	@Test
	void aPeerOnAPublicAddressIsNotTrustedByDefault() throws Exception {
		InetAddress untrusted = untrustedLocalAddress().orElse(null);
		Assumptions.assumeTrue(untrusted != null,
				"this machine has no IPv4 address outside the default trusted proxies to connect from: skipped");
		start(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		String origin = get(untrusted, "/a", "X-Forwarded-Proto: https", "X-Forwarded-For: 203.0.113.9");
		assertThat(origin).startsWith("uri=http://localhost/a\n").endsWith("client=" + untrusted.getHostAddress() + "\n");
	}

	@Test
	void forwardedHeadersOffAreIgnoredFromEveryPeer() throws Exception {
		start(ForwardedConfig.disabled());
		String origin = get("/a", "X-Forwarded-Proto: https", "Forwarded: proto=https;host=shop.example.com");
		assertThat(origin).isEqualTo("uri=http://localhost/a\ncontext=\npath=/a\nclient=127.0.0.1\n");
	}

	private String get(String target, String... headers) throws IOException {
		try (RawHttpConnection connection = new RawHttpConnection(this.server.port())) {
			connection.send(request(target, headers));
			return connection.read().bodyText();
		}
	}

	private String get(InetAddress from, String target, String... headers) throws IOException {
		try (Socket socket = new Socket()) {
			socket.setSoTimeout(10_000);
			socket.bind(new InetSocketAddress(from, 0));
			socket.connect(new InetSocketAddress(from, this.server.port()));
			OutputStream out = socket.getOutputStream();
			out.write(request(target, headers).replace("Connection: keep-alive", "Connection: close")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return response.substring(response.indexOf("\r\n\r\n") + 4);
		}
	}

	private static String request(String target, String... headers) {
		StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		return request.append("Connection: keep-alive\r\n\r\n").toString();
	}

	/** An IPv4 address of this machine that the default trusted proxies do not cover, such as 192.0.2.2. */
	private static Optional<InetAddress> untrustedLocalAddress() throws SocketException {
		ForwardedHeaders defaults = new ForwardedHeaders(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));
		for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
			if (!network.isUp()) {
				continue;
			}
			for (InetAddress address : Collections.list(network.getInetAddresses())) {
				if (address instanceof Inet4Address && !defaults.isTrusted(address)) {
					return Optional.of(address);
				}
			}
		}
		return Optional.empty();
	}

}
