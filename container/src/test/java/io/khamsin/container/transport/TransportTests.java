package io.khamsin.container.transport;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.bridge.KhamsinServerHttpRequest;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.tls.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each transport forced in turn serves on its own channels, or, where this machine does not have it, refuses to
 * start with the reason and what to do; {@code auto} takes the best one and says in its log line why it skipped a
 * better one, which a JVM without the io_uring library (or without any native transport) shows. A machine that
 * blocks io_uring shows here as a skipped test with the reason, rather than running the suite on epoll unseen.
 */
@Timeout(120)
class TransportTests {

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void aForcedTransportServesOnItsOwnChannelsOrSaysWhyItCannot(Transport transport) throws Exception {
		String unavailability = TransportResolver.unavailability(transport);
		List<Class<?>> channels = new ArrayList<>();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.transport(transport)
			.build(), (request, response) -> {
				channels.add(((KhamsinServerHttpRequest) request).channel().getClass());
				return new TestRoutes(null).handler().handle(request, response);
			});
		if (unavailability != null) {
			assertThatIllegalStateException().isThrownBy(server::start)
				.withMessageContaining("khamsin.transport=" + transport.name().toLowerCase().replace('_', '-')
						+ " is not available on this machine (" + unavailability + ")")
				.withMessageContaining("set khamsin.transport=auto to fall back");
			assumeTrue(false, () -> transport.displayName() + " is not available on this machine (" + unavailability
					+ "): the suite runs on another transport");
		}
		server.start();
		try {
			assertThat(server.transport().transport()).isEqualTo(transport);
			assertThat(server.transport().fallbackReason()).isNull();
			assertThat(server.listenerMode())
				.isEqualTo((transport == Transport.NIO) ? ListenerMode.SHARED : ListenerMode.REUSEPORT);
			assertThat(plaintext(server.port())).isEqualTo("Hello, World!");
			assertThat(channels).singleElement().isEqualTo(switch (transport) {
				case IO_URING -> IoUringSocketChannel.class;
				case EPOLL -> EpollSocketChannel.class;
				default -> NioSocketChannel.class;
			});
		}
		finally {
			server.stop();
		}
	}

	@Test
	void autoTakesTheBestTransportOfThisMachine() throws Exception {
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				new TestRoutes(null).handler());
		server.start();
		try {
			Transport expected = (TransportResolver.ioUringUnavailability() == null) ? Transport.IO_URING
					: (TransportResolver.epollUnavailability() == null) ? Transport.EPOLL : Transport.NIO;
			assertThat(server.transport().transport()).isEqualTo(expected);
			assertThat(plaintext(server.port())).isEqualTo("Hello, World!");
		}
		finally {
			server.stop();
		}
	}

	@Test
	void withHttp2AutoRunsOnEpollAndSaysWhy() throws Exception {
		String epoll = TransportResolver.epollUnavailability();
		assumeTrue(epoll == null, () -> "epoll is not available on this machine (" + epoll + ")");
		String ioUring = TransportResolver.ioUringUnavailability();
		assumeTrue(ioUring == null, () -> "io_uring is not available on this machine (" + ioUring + ")");
		List<List<String>> pipelines = new CopyOnWriteArrayList<>();
		KhamsinServer server = http2Server(Transport.AUTO, pipelines);
		server.start();
		try {
			assertThat(server.transport().transport()).isEqualTo(Transport.EPOLL);
			assertThat(server.transport().fallbackReason()).startsWith("HTTP/2 is enabled")
				.contains("set khamsin.transport=io-uring");
			assertThat(overHttp2(server.port(), 1)).containsExactly("Hello, World!");
			assertThat(pipelines).singleElement().satisfies((names) -> assertThat(names)
				.doesNotContain(ReadPacing.NAME, WriteCoalescing.NAME));
		}
		finally {
			server.stop();
		}
	}

	@Test
	void withHttp2OverTlsAutoRunsOnEpollToo() throws Exception {
		assertAutoRunsOnEpollOverTls((builder) -> builder.http2(Http2Config.builder().enabled(true).build()),
				"HTTP/2 is enabled");
	}

	@Test
	void withHttp3AutoRunsOnEpollAndSaysWhy() throws Exception {
		assertAutoRunsOnEpollOverTls((builder) -> builder.http3(Http3Config.builder().enabled(true).build()),
				"HTTP/3 is enabled");
	}

	private static void assertAutoRunsOnEpollOverTls(UnaryOperator<KhamsinServerConfig.Builder> protocols,
			String reason) throws Exception {
		String epoll = TransportResolver.epollUnavailability();
		assumeTrue(epoll == null, () -> "epoll is not available on this machine (" + epoll + ")");
		String ioUring = TransportResolver.ioUringUnavailability();
		assumeTrue(ioUring == null, () -> "io_uring is not available on this machine (" + ioUring + ")");
		TestCertificates certificates = TestCertificates.create();
		KhamsinServer server = KhamsinServer.create(protocols.apply(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(certificates.server("127.0.0.1").material("127.0.0.1")).build()))
			.build(), new TestRoutes(null).handler());
		server.start();
		try {
			assertThat(server.transport().transport()).isEqualTo(Transport.EPOLL);
			assertThat(server.transport().fallbackReason()).startsWith(reason)
				.contains("set khamsin.transport=io-uring");
		}
		finally {
			server.stop();
		}
	}

	@Test
	void http2ForcedOntoIoUringPacesReadsAndCoalescesWritesOfItsConnections() throws Exception {
		String ioUring = TransportResolver.ioUringUnavailability();
		assumeTrue(ioUring == null, () -> "io_uring is not available on this machine (" + ioUring + ")");
		List<List<String>> pipelines = new CopyOnWriteArrayList<>();
		KhamsinServer server = http2Server(Transport.IO_URING, pipelines);
		server.start();
		try {
			assertThat(server.transport().transport()).isEqualTo(Transport.IO_URING);
			assertThat(server.transport().fallbackReason()).isNull();
			assertThat(overHttp2(server.port(), 200)).hasSize(200).containsOnly("Hello, World!");
			assertThat(pipelines).hasSize(200).allSatisfy((names) -> assertThat(names.subList(0, 2))
				.containsExactly(WriteCoalescing.NAME, ReadPacing.NAME));
		}
		finally {
			server.stop();
		}
	}

	private static KhamsinServer http2Server(Transport transport, List<List<String>> pipelines) {
		return KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.transport(transport)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), (request, response) -> {
				Channel stream = ((KhamsinServerHttpRequest) request).channel();
				pipelines.add(stream.parent().pipeline().names());
				return new TestRoutes(null).handler().handle(request, response);
			});
	}

	/** GET /plaintext {@code count} times at once over one HTTP/2 connection (upgraded from HTTP/1.1). */
	private static List<String> overHttp2(int port, int count) throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
		URI uri = URI.create("http://127.0.0.1:" + port + "/plaintext");
		// The first request upgrades the connection; the others are its streams, all open at once.
		HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
		assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
		List<String> bodies = new ArrayList<>(List.of(first.body()));
		while (bodies.size() < count) {
			// At most 50 at once: the client refuses more streams than the server's limit (100) rather than wait.
			List<CompletableFuture<HttpResponse<String>>> open = new ArrayList<>();
			for (int i = 0; i < Math.min(50, count - bodies.size()); i++) {
				open.add(client.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()));
			}
			for (CompletableFuture<HttpResponse<String>> response : open) {
				HttpResponse<String> answered = response.get(30, TimeUnit.SECONDS);
				assertThat(answered.version()).isEqualTo(HttpClient.Version.HTTP_2);
				bodies.add(answered.body());
			}
		}
		return bodies;
	}

	@Test
	void withoutTheIoUringLibraryAutoRunsOnEpollAndSaysWhy() throws Exception {
		String epoll = TransportResolver.epollUnavailability();
		assumeTrue(epoll == null, () -> "epoll is not available on this machine (" + epoll + ")");
		String classpath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.contains("netty-transport-native-io_uring"))
			.collect(Collectors.joining(File.pathSeparator));
		String output = probe(classpath);
		assertThat(output).contains("khamsin runs on epoll (io_uring not available: ")
			.contains("served ok on epoll (reuseport)");
	}

	@Test
	void withoutNativeTransportsAutoRunsOnNioAndSaysWhy() throws Exception {
		String output = probe(System.getProperty("java.class.path"), "-Dio.netty.transport.noNative=true");
		assertThat(output).contains("khamsin runs on nio (io_uring not available: ")
			.contains("; epoll not available: ")
			.contains("khamsin.listener=reuseport needs io_uring or epoll; nio listens on one shared socket")
			.contains("served ok on nio (shared)");
	}

	private static String probe(String classpath, String... options) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of(options));
		command.addAll(List.of("-cp", classpath, TransportFallbackProbe.class.getName()));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM ended").isTrue();
		String text = new String(output, StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as("the probe JVM's exit status, after:%n%s", text).isZero();
		return text;
	}

	private static String plaintext(int port) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/plaintext")).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
	}

}
