package io.khamsin.container.bridge;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A large upload to a handler that reads more slowly than the client sends is held back by the socket, not
 * buffered: pooled memory stays within a small window however large the body, in cleartext and over TLS.
 */
@Timeout(120)
class RequestBodyBackpressureTests {

	private static final long GIB = 1024L * 1024 * 1024;

	private static final long WINDOW = 32L * 1024 * 1024;

	@Test
	void oneGibUploadToASlowReaderStaysWithinABoundedWindow() throws Exception {
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(),
				new TestRoutes(Path.of("missing")).handler());
		uploadStaysWithinABoundedWindow(server, HttpClient.newHttpClient(), "http", GIB);
	}

	@ParameterizedTest
	@EnumSource(names = { "OPENSSL", "JDK" })
	void anUploadOverTlsToASlowReaderStaysWithinABoundedWindow(TlsProvider provider) throws Exception {
		TestCertificates certificates = TestCertificates.create();
		TlsConfig tls = TlsConfig.builder(certificates.server("127.0.0.1").material("127.0.0.1"))
			.provider(provider)
			.build();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).tls(tls).build(),
				new TestRoutes(Path.of("missing")).handler());
		HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext(null)).build();
		uploadStaysWithinABoundedWindow(server, client, "https", GIB / 4);
	}

	private static void uploadStaysWithinABoundedWindow(KhamsinServer server, HttpClient client, String scheme,
			long size) throws Exception {
		server.start();
		AtomicBoolean uploading = new AtomicBoolean(true);
		AtomicLong peakDirect = new AtomicLong();
		AtomicLong peakHeap = new AtomicLong();
		long heapBefore = usedHeap();
		Thread sampler = new Thread(() -> {
			while (uploading.get()) {
				peakDirect.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
				peakHeap.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedHeapMemory(), Math::max);
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		sampler.start();
		try {
			MessageDigest expected = TestRoutes.sha256();
			HttpRequest request = HttpRequest
				.newBuilder(URI.create(scheme + "://127.0.0.1:" + server.port() + "/slow-reader"))
				.POST(HttpRequest.BodyPublishers.fromPublisher(
						HttpRequest.BodyPublishers.ofInputStream(() -> new PatternStream(size, expected)), size))
				.build();
			HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(size + " " + HexFormat.of().formatHex(expected.digest()));
		}
		finally {
			uploading.set(false);
			sampler.join();
			server.stop();
		}
		assertThat(peakDirect.get()).as("peak pooled direct memory").isLessThan(WINDOW);
		assertThat(peakHeap.get()).as("peak pooled heap memory").isLessThan(WINDOW);
		assertThat(usedHeap() - heapBefore).as("heap growth").isLessThan(GIB / 4);
	}

	private static long usedHeap() {
		System.gc();
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

	/** A deterministic stream of bytes that feeds a digest of what it produced. */
	private static final class PatternStream extends InputStream {

		private final long length;

		private final MessageDigest digest;

		private long position;

		PatternStream(long length, MessageDigest digest) {
			this.length = length;
			this.digest = digest;
		}

		@Override
		public int read() {
			byte[] one = new byte[1];
			return (read(one, 0, 1) == -1) ? -1 : one[0] & 0xff;
		}

		@Override
		public int read(byte[] buffer, int offset, int count) {
			if (this.position >= this.length) {
				return -1;
			}
			int n = (int) Math.min(count, this.length - this.position);
			for (int i = 0; i < n; i++) {
				buffer[offset + i] = (byte) ((this.position + i) * 31);
			}
			this.digest.update(buffer, offset, n);
			this.position += n;
			return n;
		}

	}

}
