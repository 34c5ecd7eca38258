package io.khamsin.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.test.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files of 64 KiB, 1 MiB and 100 MiB downloaded by curl from the sample app's static files over plain HTTP/1.1 (the
 * kernel's sendfile), TLS HTTP/1.1 and HTTP/2 over TLS (the file read in chunks into pooled buffers and encrypted in
 * user space), checksummed; and a hundred clients downloading 16 MiB each over TLS at once, with the server's
 * pooled memory under a bound that does not grow with the files.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LargeDownloadTests {

	private static final Duration CURL_TIMEOUT = Duration.ofSeconds(120);

	private static final int[] SIZES = { 64 * 1024, 1024 * 1024, 100 * 1024 * 1024 };

	/**
	 * The size each of the hundred clients downloads at once: 1.6 GiB in all, 25 times the memory bound, so that a
	 * server that read files ahead of the sockets, or held more than a few chunks per connection, would cross it;
	 * larger files add only encryption time (100 MiB each took 34 of the class's 38 s on 2 cores).
	 */
	private static final int CONCURRENT_SIZE = 16 * 1024 * 1024;

	/**
	 * The bound of the pooled direct memory the server holds while a hundred clients download 16 MiB each: 64 MiB
	 * (4% of the 1.6 GiB sent; 16 MiB measured on 2 cores, 32 MiB with 100 MiB each), a few chunks of 64 KiB per
	 * connection in flight through TLS and the socket, and the pool's chunks those are carved from; or two chunks per
	 * arena of the pool, whichever is larger (the file is read on many threads, which spread over every arena).
	 */
	private static final long DIRECT_MEMORY_BOUND = Math.max(64L * 1024 * 1024,
			2L * PooledByteBufAllocator.DEFAULT.metric().numDirectArenas()
					* PooledByteBufAllocator.DEFAULT.metric().chunkSize());

	/** The bound of the pooled heap memory the server holds meanwhile: file bytes never go through the heap. */
	private static final long HEAP_MEMORY_BOUND = 16L * 1024 * 1024;

	@TempDir
	static Path downloads;

	private static TlsSampleApp tls;

	private static final List<String> digests = new ArrayList<>();

	@BeforeAll
	static void writeFiles() throws Exception {
		CommandLine.assumeInstalled("curl", "curl");
		tls = new TlsSampleApp(Container.KHAMSIN, "--server.http2.enabled=true");
		Random random = new Random(100);
		for (int size : SIZES) {
			digests.add(write(size, random));
		}
		write(CONCURRENT_SIZE, random);
	}

	/** @return the file's SHA-256, in hex */
	private static String write(int size, Random random) throws Exception {
		byte[] block = new byte[1024 * 1024];
		Path file = tls.filesDir().resolve("large-" + size + ".bin");
		MessageDigest digest = MessageDigest.getInstance("SHA-256");
		try (OutputStream out = Files.newOutputStream(file)) {
			for (int left = size; left > 0; left -= block.length) {
				random.nextBytes(block);
				int length = Math.min(left, block.length);
				out.write(block, 0, length);
				digest.update(block, 0, length);
			}
		}
		Path plain = SampleServers.filesDir().resolve(file.getFileName());
		Files.deleteIfExists(plain);
		Files.createLink(plain, file);
		return HexFormat.of().formatHex(digest.digest());
	}

	@AfterAll
	static void stop() throws IOException {
		if (tls != null) {
			tls.close();
		}
		for (int size : SIZES) {
			Files.deleteIfExists(SampleServers.filesDir().resolve("large-" + size + ".bin"));
		}
		Files.deleteIfExists(SampleServers.filesDir().resolve("large-" + CONCURRENT_SIZE + ".bin"));
	}

	@Test
	void everySizeArrivesWholeOverPlainHttp1TlsHttp1AndHttp2() throws Exception {
		String plain = "http://127.0.0.1:" + Container.KHAMSIN.server().port();
		String secure = "https://localhost:" + tls.port();
		for (int i = 0; i < SIZES.length; i++) {
			String path = "/files/large-" + SIZES[i] + ".bin";
			assertThat(download(plain + path, "--http1.1")).as("%s over plain HTTP/1.1", path).isEqualTo(digests.get(i));
			assertThat(download(secure + path, "--http1.1")).as("%s over TLS HTTP/1.1", path).isEqualTo(digests.get(i));
			assertThat(download(secure + path, "--http2")).as("%s over HTTP/2", path).isEqualTo(digests.get(i));
		}
	}

	@Test
	void aHundredClientsDownloading16MiBEachOverTlsStayWithinTheMemoryBound() throws Exception {
		int clients = 100;
		long size = CONCURRENT_SIZE;
		// Measured from what the pools held before: the tests before this one in the same JVM leave arenas of their
		// own in the shared pools (the heap pool held 12 to 16 MiB in a full build, nothing with this class alone).
		long directBefore = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
		long heapBefore = PooledByteBufAllocator.DEFAULT.metric().usedHeapMemory();
		AtomicLong peakDirect = new AtomicLong(directBefore);
		AtomicLong peakHeap = new AtomicLong(heapBefore);
		Thread sampler = new Thread(() -> {
			while (!Thread.currentThread().isInterrupted()) {
				peakDirect.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
				peakHeap.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedHeapMemory(), Math::max);
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "memory-sampler");
		sampler.setDaemon(true);
		sampler.start();
		List<Process> curls = new ArrayList<>();
		try {
			for (int i = 0; i < clients; i++) {
				curls.add(new ProcessBuilder("curl", "-sS", "--http1.1", "--cacert", tls.caPem().toString(), "-o",
						"/dev/null", "-w", "%{http_code} %{size_download}",
						"https://localhost:" + tls.port() + "/files/large-" + size + ".bin")
					.redirectErrorStream(true)
					.start());
			}
			for (Process curl : curls) {
				assertThat(curl.waitFor(CURL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("curl ends").isTrue();
				String output;
				try (InputStream in = curl.getInputStream()) {
					output = new String(in.readAllBytes());
				}
				assertThat(output).isEqualTo("200 " + size);
			}
		}
		finally {
			curls.forEach(Process::destroyForcibly);
			sampler.interrupt();
			sampler.join();
		}
		System.out.printf("%d clients x %d MiB over TLS: pooled direct memory at most %d KiB (%d KiB before), pooled "
				+ "heap %d KiB (%d KiB before)%n", clients, size >> 20, peakDirect.get() >> 10, directBefore >> 10,
				peakHeap.get() >> 10, heapBefore >> 10);
		assertThat(peakDirect.get() - directBefore).as("pooled direct memory taken by the downloads")
			.isLessThanOrEqualTo(DIRECT_MEMORY_BOUND);
		assertThat(peakHeap.get() - heapBefore).as("pooled heap memory taken by the downloads")
			.isLessThanOrEqualTo(HEAP_MEMORY_BOUND);
	}

	private String download(String url, String protocol) throws Exception {
		Path out = Files.createTempFile(downloads, "download", ".bin");
		try {
			CommandLine.Result result = CommandLine.run(null, CURL_TIMEOUT, "curl", "-sS", protocol, "--cacert",
					tls.caPem().toString(), "-o", out.toString(), url);
			assertThat(result.exitCode()).as("curl exit code, output: %s", result.output()).isZero();
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			try (InputStream in = Files.newInputStream(out)) {
				byte[] buffer = new byte[1024 * 1024];
				for (int read; (read = in.read(buffer)) > 0;) {
					digest.update(buffer, 0, read);
				}
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		finally {
			Files.delete(out);
		}
	}

}
