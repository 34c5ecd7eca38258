package io.khamsin.container.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.egress.EgressMode;
import io.khamsin.container.egress.EgressReason;
import io.khamsin.container.egress.KernelTlsMode;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code khamsin.egress.ktls} through the whole server, with curl as the client: files of several sizes over
 * HTTP/1.1 and HTTP/2 (ALPN) arrive whole, Spring's request has its {@code SslInfo}, and each file response is
 * counted by the way it left. On a kernel with the {@code tls} ULP (the guest of {@code .ci/ktls-guest}) the
 * kernel seals the HTTP/1.1 connections and their files leave by sendfile; on one without it, the kernel refuses
 * and the same connections stay in user space, counted as refused.
 */
class KernelTlsServerTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final int[] SIZES = { 64 * 1024, 1024 * 1024 + 17, 16 * 1024 * 1024 + 5 };

	@TempDir
	static Path dir;

	private static final Map<Integer, String> digests = new java.util.HashMap<>();

	private KhamsinServer server;

	@BeforeAll
	static void writeFiles() throws Exception {
		Random random = new Random(11);
		for (int size : SIZES) {
			byte[] content = new byte[size];
			random.nextBytes(content);
			Path file = Files.write(dir.resolve(size + ".bin"), content);
			digests.put(size, sha256(file));
		}
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void filesOverHttp1LeaveByTheKernelWhereItSealsAndWholeEitherWay() throws Exception {
		assumeEpoll();
		start(KernelTlsMode.ON, Transport.EPOLL, false);
		for (int size : SIZES) {
			assertThat(download(size, "--http1.1")).as("%d bytes over TLS HTTP/1.1", size).isEqualTo(digests.get(size));
		}
		Map<EgressReason, Long> counts = this.server.metrics().egress().snapshot();
		if (kernelOffersTls()) {
			assertThat(counts).containsEntry(EgressReason.KERNEL_TLS, (long) SIZES.length);
		}
		else {
			assertThat(counts).containsEntry(EgressReason.KERNEL_TLS_REFUSED, (long) SIZES.length);
		}
		assertThat(counts).containsEntry(EgressReason.TLS_IN_USERSPACE, 0L);
		assertThat(this.server.metrics().tls().totals().full()).isEqualTo(SIZES.length);
		assertThat(ktls().available()).isTrue();
		assertThat(ktls().reason()).startsWith("khamsin.egress.ktls=on");
	}

	@Test
	void http2IsAgreedByAlpnAndItsFilesLeaveInFrames() throws Exception {
		assumeEpoll();
		start(KernelTlsMode.ON, Transport.EPOLL, true);
		for (int size : SIZES) {
			assertThat(download(size, "--http2")).as("%d bytes over h2", size).isEqualTo(digests.get(size));
		}
		CommandLine.Result result = curl(List.of("--http2", "-w", "%{http_version}", url("/info")));
		assertThat(result.output()).isEqualTo("https with TLS session info2");
		assertThat(this.server.metrics().egress().snapshot()).containsEntry(EgressReason.PROTOCOL_FRAMES,
				(long) SIZES.length);
	}

	@Test
	void theRequestHasItsTlsSessionInfo() throws Exception {
		assumeEpoll();
		start(KernelTlsMode.ON, Transport.EPOLL, false);
		CommandLine.Result result = curl(List.of("--http1.1", url("/info")));
		assertThat(result.output()).isEqualTo("https with TLS session info");
	}

	@Test
	void onNioTheListenersProviderServesAndSaysNothingWasTried() throws Exception {
		start(KernelTlsMode.ON, Transport.NIO, false);
		assertThat(download(SIZES[0], "--http1.1")).isEqualTo(digests.get(SIZES[0]));
		assertThat(this.server.metrics().egress().snapshot()).containsEntry(EgressReason.TLS_IN_USERSPACE, 1L)
			.containsEntry(EgressReason.KERNEL_TLS_REFUSED, 0L);
	}

	@Test
	void autoStaysInUserSpaceOnLoopbackAndSaysWhy() throws Exception {
		assumeEpoll();
		start(KernelTlsMode.AUTO, Transport.EPOLL, false);
		assertThat(download(SIZES[0], "--http1.1")).isEqualTo(digests.get(SIZES[0]));
		assertThat(this.server.metrics().egress().snapshot()).containsEntry(EgressReason.TLS_IN_USERSPACE, 1L);
		assertThat(ktls().reason()).startsWith("khamsin.egress.ktls=auto");
	}

	@Test
	void offNeverTries() throws Exception {
		assumeEpoll();
		start(KernelTlsMode.OFF, Transport.EPOLL, false);
		assertThat(download(SIZES[0], "--http1.1")).isEqualTo(digests.get(SIZES[0]));
		assertThat(this.server.metrics().egress().snapshot()).containsEntry(EgressReason.TLS_IN_USERSPACE, 1L);
		assertThat(ktls().available()).isFalse();
		assertThat(ktls().reason()).isEqualTo("khamsin.egress.ktls=off: TLS stays in user space "
				+ "(khamsin.egress.ktls is off)");
	}

	private void start(KernelTlsMode mode, Transport transport, boolean http2) {
		HttpHandler handler = (request, response) -> {
			String path = request.getURI().getPath();
			if (path.equals("/info")) {
				String text = request.getURI().getScheme()
						+ ((request.getSslInfo() != null) ? " with TLS session info" : " without TLS session info");
				DataBuffer body = response.bufferFactory().wrap(text.getBytes(StandardCharsets.US_ASCII));
				return response.writeWith(Mono.just(body));
			}
			Path file = dir.resolve(path.substring(1));
			long size;
			try {
				size = Files.size(file);
			}
			catch (java.io.IOException ex) {
				return Mono.error(ex);
			}
			return ((ZeroCopyHttpOutputMessage) response).writeWith(file, 0, size);
		};
		TlsConfig tls = TlsConfig.builder(DevelopmentCertificate.create().material()).kernelTls(mode).build();
		KhamsinServerConfig.Builder config = KhamsinServerConfig.builder().reactors(1).transport(transport).tls(tls);
		if (http2) {
			config.http2(Http2Config.builder().enabled(true).build());
		}
		this.server = KhamsinServer.create(config.build(), handler);
		this.server.start();
	}

	private EgressMode ktls() {
		return this.server.egressModes().stream().filter((mode) -> mode.mode().equals("ktls")).findFirst().orElseThrow();
	}

	private String download(int size, String protocol) throws Exception {
		Path out = Files.createTempFile(dir, "out", ".bin");
		curl(List.of(protocol, "-o", out.toString(), url("/" + size + ".bin")));
		return sha256(out);
	}

	private CommandLine.Result curl(List<String> arguments) throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		List<String> command = new ArrayList<>(List.of("curl", "-sS", "-k", "--fail"));
		command.addAll(arguments);
		CommandLine.Result result = CommandLine.run(null, WAIT, command);
		assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
		return result;
	}

	private String url(String path) {
		return "https://127.0.0.1:" + this.server.port() + path;
	}

	private static void assumeEpoll() {
		Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll is not available: " + Epoll.unavailabilityCause());
	}

	/** Whether this kernel has the tls ULP loaded, as the guest of .ci/ktls-guest has. */
	private static boolean kernelOffersTls() throws Exception {
		Path available = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");
		return Files.isReadable(available) && List.of(Files.readString(available).trim().split("\\s+")).contains("tls");
	}

	private static String sha256(Path path) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
	}

}
