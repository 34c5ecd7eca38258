package io.khamsin.container.tls;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
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

	private final DevelopmentCertificate certificate = DevelopmentCertificate.create();

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
	void theJdkClientGetsItsAnswersOnIoUringToo() throws Exception {
		Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
		start(KernelTlsMode.ON, Transport.IO_URING, false);
		HttpClient client = HttpClient.newBuilder().sslContext(trusting()).version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10)).build();
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/info")))
				.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("https with TLS session info");
			assertThat(response.sslSession()).hasValueSatisfying(
					(session) -> assertThat(session.getProtocol()).isEqualTo("TLSv1.3"));
		}
		assertThat(download(SIZES[1], "--http1.1")).isEqualTo(digests.get(SIZES[1]));
	}

	private SSLContext trusting() throws Exception {
		KeyStore trust = KeyStore.getInstance("PKCS12");
		trust.load(null, null);
		trust.setCertificateEntry("khamsin", this.certificate.certificate());
		TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(trust);
		SSLContext context = SSLContext.getInstance("TLSv1.3");
		context.init(null, trustManagers.getTrustManagers(), null);
		return context;
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

	@Test
	void anRsaIdentitySignsItsHandshakesWithPss() throws Exception {
		assumeEpoll();
		CommandLine.assumeInstalled("openssl", "openssl");
		Path certificate = dir.resolve("rsa.crt");
		Path key = dir.resolve("rsa.key");
		CommandLine.Result made = CommandLine.run(null, WAIT, "openssl", "req", "-x509", "-newkey", "rsa:2048",
				"-nodes", "-sha256", "-days", "2", "-subj", "/CN=localhost", "-addext",
				"subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.toString(), "-out", certificate.toString());
		assertThat(made.exitCode()).as(made.output()).isZero();
		start(TlsMaterial.fromPem(certificate, key), KernelTlsMode.ON, Transport.EPOLL, false);
		assertThat(download(SIZES[1], "--http1.1")).isEqualTo(digests.get(SIZES[1]));
		assertThat(this.server.metrics().tls().totals().full()).isEqualTo(1);
	}

	/**
	 * The time a 16 MiB file takes to download over TLS HTTP/1.1 with the kernel sealing it (sendfile) against user
	 * space sealing it (read into buffers, encrypted by BoringSSL), from two servers side by side, interleaved, median
	 * of three rounds after one warm-up download each. Where the kernel has no tls ULP both would stay in user space,
	 * so this runs in the guest of {@code .ci/ktls-guest} only; its CPU is emulated (TCG), so the ratio says how the
	 * two paths compare in work, not what either costs on a real machine.
	 */
	@Test
	void kernelSealedFilesAgainstUserSpaceSealedOnes() throws Exception {
		assumeEpoll();
		Assumptions.assumeTrue(kernelOffersTls(),
				"the kernel offers no tls ULP: the comparison runs in the guest of .ci/ktls-guest");
		start(KernelTlsMode.ON, Transport.EPOLL, false);
		KhamsinServer userSpace = create(this.certificate.material(), KernelTlsMode.OFF, Transport.EPOLL, false);
		userSpace.start();
		try {
			int size = SIZES[2];
			List<Double> kernel = new ArrayList<>();
			List<Double> user = new ArrayList<>();
			for (int round = 0; round <= 3; round++) {
				double kernelTime = timedDownload(this.server, size);
				double userTime = timedDownload(userSpace, size);
				if (round > 0) {
					kernel.add(kernelTime);
					user.add(userTime);
				}
			}
			kernel.sort(null);
			user.sort(null);
			System.out.printf("%d MiB over TLS HTTP/1.1, median of 3: kernel TLS %.2f s (%s), user space %.2f s (%s):"
					+ " kernel TLS takes %.2fx the time of user space (emulated CPU)%n", size >> 20, kernel.get(1),
					kernel, user.get(1), user, kernel.get(1) / user.get(1));
			assertThat(this.server.metrics().egress().snapshot()).containsEntry(EgressReason.KERNEL_TLS, 4L);
			assertThat(userSpace.metrics().egress().snapshot()).containsEntry(EgressReason.TLS_IN_USERSPACE, 4L);
		}
		finally {
			userSpace.stop();
		}
	}

	private double timedDownload(KhamsinServer target, int size) throws Exception {
		Path out = Files.createTempFile(dir, "out", ".bin");
		CommandLine.Result result = curl(List.of("--http1.1", "-o", out.toString(), "-w", "%{time_total}",
				"https://127.0.0.1:" + target.port() + "/" + size + ".bin"));
		assertThat(sha256(out)).isEqualTo(digests.get(size));
		Files.delete(out);
		return Double.parseDouble(result.output().trim());
	}

	private void start(KernelTlsMode mode, Transport transport, boolean http2) {
		start(this.certificate.material(), mode, transport, http2);
	}

	private void start(TlsMaterial material, KernelTlsMode mode, Transport transport, boolean http2) {
		this.server = create(material, mode, transport, http2);
		this.server.start();
	}

	private KhamsinServer create(TlsMaterial material, KernelTlsMode mode, Transport transport, boolean http2) {
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
		TlsConfig tls = TlsConfig.builder(material).kernelTls(mode).build();
		KhamsinServerConfig.Builder config = KhamsinServerConfig.builder().reactors(1).transport(transport).tls(tls);
		if (http2) {
			config.http2(Http2Config.builder().enabled(true).build());
		}
		return KhamsinServer.create(config.build(), handler);
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
