package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import io.khamsin.benchmark.load.ClientTls;
import io.khamsin.benchmark.load.H3Load;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.target.Payloads;
import io.khamsin.benchmark.target.TrustAll;

/**
 * The soak's traffic: churn, mixed, uploads and downloads over HTTP/1.1 (TLS), HTTP/2 (TLS, ALPN) and HTTP/3, and
 * slow clients over HTTP/1.1, about 150 requests and 10 MB of downloads a second in all (fewer where a loaded
 * machine answers more slowly: the HTTP/3 and slow clients wait for each answer): a steady load, not a peak. Every workload sends to the sample app's routes:
 * {@code /plaintext} (13 bytes), {@code POST /upload} (answers the body's length and SHA-256) and {@code /files/**}.
 */
final class SoakWorkloads {

	static final String PLAINTEXT = "/plaintext";

	static final long PLAINTEXT_LENGTH = "Hello, World!".length();

	static final String DOWNLOAD = "/files/" + Payloads.FILE_1M;

	static final int UPLOAD_SIZE = 64 * 1024;

	static final int SLOW_UPLOAD_SIZE = 256 * 1024;

	private SoakWorkloads() {
	}

	/**
	 * @param address the server's TLS port (and its HTTP/3 port, the same number over UDP)
	 * @param workDir where h2load's timing scripts and upload body go
	 * @return every workload of a soak
	 */
	static List<Workload> all(InetSocketAddress address, Path workDir) {
		byte[] upload = Payloads.file(UPLOAD_SIZE);
		String receipt = receipt(upload);
		Path uploadFile = write(workDir.resolve("upload-64k.bin"), upload);
		ClientTls tls = ClientTls.resuming();
		RequestTemplate plaintext = RequestTemplate.get(PLAINTEXT, PLAINTEXT_LENGTH);
		RequestTemplate post = RequestTemplate.post("/upload", "application/octet-stream", upload, receipt.length());
		RequestTemplate download = RequestTemplate.get(DOWNLOAD, 1024 * 1024);
		H3Load.Pacing h3Get = new H3Load.Pacing("GET", new byte[0], PLAINTEXT_LENGTH, Duration.ofMillis(100), false);
		H3Load.Pacing h3Churn = new H3Load.Pacing("GET", new byte[0], PLAINTEXT_LENGTH, Duration.ofMillis(200), true);
		return List.of(
				new H1Workload("h1-churn", "GET /plaintext, a new TLS connection per request (Connection: close, "
						+ "resumed sessions), 10/s", List.of(h1Close(address, plaintext, 10, tls))),
				new H1Workload("h1-mixed", "GET /plaintext, 20/s on 2 keep-alive connections and 5/s with "
						+ "Connection: close", List.of(h1KeepAlive(address, plaintext, 2, 20, tls),
								h1Close(address, plaintext, 5, tls))),
				new H1Workload("h1-upload", "POST /upload of 64 KB, 5/s on 2 keep-alive connections",
						List.of(h1KeepAlive(address, post, 2, 5, tls))),
				new H1Workload("h1-download", "GET " + DOWNLOAD + " (1 MB), 3/s on 2 keep-alive connections",
						List.of(h1KeepAlive(address, download, 2, 3, tls))),
				new SlowClients(address, TrustAll.context(), 3, DOWNLOAD, Payloads.file(1024 * 1024), 2,
						Payloads.file(SLOW_UPLOAD_SIZE), receipt(Payloads.file(SLOW_UPLOAD_SIZE))),
				H2Workload.churn("h2-churn", "GET /plaintext, 5 new h2 connections a second, one request each",
						address, PLAINTEXT, PLAINTEXT_LENGTH, 5, workDir),
				new MixedWorkload("h2-mixed",
						H2Workload.keepAlive("h2-mixed-keepalive", "GET /plaintext, 4 h2 connections, one request "
								+ "every 200 ms each (20/s)", address, PLAINTEXT, null, PLAINTEXT_LENGTH, 4,
								Duration.ofMillis(200), workDir),
						H2Workload.churn("h2-mixed-close", "GET /plaintext, 5 new h2 connections a second", address,
								PLAINTEXT, PLAINTEXT_LENGTH, 5, workDir)),
				H2Workload.keepAlive("h2-upload", "POST /upload of 64 KB, 2 h2 connections, one every 400 ms each "
						+ "(5/s)", address, "/upload", uploadFile, receipt.length(), 2, Duration.ofMillis(400),
						workDir),
				H2Workload.keepAlive("h2-download", "GET " + DOWNLOAD + ", 2 h2 connections, one every 600 ms each "
						+ "(3.3/s)", address, DOWNLOAD, null, 1024 * 1024, 2, Duration.ofMillis(600), workDir),
				new H3Workload("h3-churn", "GET /plaintext, 1 client on a new QUIC connection per request, 200 ms "
						+ "apart", address, PLAINTEXT, 1, h3Churn),
				new MixedWorkload("h3-mixed",
						new H3Workload("h3-mixed-keepalive", "GET /plaintext, 2 QUIC connections, 100 ms between "
								+ "an answer and the next request", address, PLAINTEXT, 2, h3Get),
						new H3Workload("h3-mixed-close", "GET /plaintext, 1 client on a new QUIC connection per "
								+ "request, 200 ms apart", address, PLAINTEXT, 1, h3Churn)),
				new H3Workload("h3-upload", "POST /upload of 64 KB, 1 QUIC connection, 200 ms apart", address,
						"/upload", 1, new H3Load.Pacing("POST", upload, receipt.length(), Duration.ofMillis(200),
								false)),
				new H3Workload("h3-download", "GET " + DOWNLOAD + ", 1 QUIC connection, 300 ms apart", address,
						DOWNLOAD, 1, new H3Load.Pacing("GET", new byte[0], 1024 * 1024, Duration.ofMillis(300),
								false)));
	}

	private static LoadSpec h1KeepAlive(InetSocketAddress address, RequestTemplate request, int connections,
			double rate, ClientTls tls) {
		return LoadSpec.openLoop(address, request, connections, rate, Duration.ZERO, Duration.ofSeconds(1))
			.withTls(tls);
	}

	private static LoadSpec h1Close(InetSocketAddress address, RequestTemplate request, double rate, ClientTls tls) {
		return LoadSpec.connectionPerRequest(address, request, rate, Duration.ZERO, Duration.ofSeconds(1))
			.withTls(tls);
	}

	/** @return what {@code POST /upload} answers for {@code body}: its length and lower-case hex SHA-256, as JSON */
	static String receipt(byte[] body) {
		try {
			String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
			return "{\"bytes\":" + body.length + ",\"sha256\":\"" + sha256 + "\"}";
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Path write(Path file, byte[] bytes) {
		try {
			Files.createDirectories(file.getParent());
			return Files.write(file, bytes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
