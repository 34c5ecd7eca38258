package io.khamsin.container.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * File bodies on every transport, to clients that stop reading: each waits on its socket without holding a thread
 * of the server (on io_uring, a splice into a full socket blocked one of its kernel workers per client, and those
 * are threads of this process), and each gets the file whole, byte for byte, once it reads again.
 */
@Timeout(120)
class FileRegionsTests {

	/** More than the kernel buffers between the two ends hold. */
	private static final int FILE_SIZE = 4 * 1024 * 1024 + 12_345;

	private static final int READERS = 40;

	@TempDir
	static Path directory;

	private static Path file;

	private static byte[] digest;

	private KhamsinServer server;

	@BeforeAll
	static void writeFile() throws Exception {
		file = directory.resolve("large.bin");
		byte[] bytes = new byte[FILE_SIZE];
		new Random(11).nextBytes(bytes);
		Files.write(file, bytes);
		digest = MessageDigest.getInstance("SHA-256").digest(bytes);
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "IO_URING", "EPOLL", "NIO" })
	void clientsThatStopReadingHoldNoThreadOfTheServerAndGetTheWholeFileWhenTheyRead(Transport transport)
			throws Exception {
		String unavailability = TransportResolver.unavailability(transport);
		assumeTrue(unavailability == null,
				() -> transport.displayName() + " is not available on this machine (" + unavailability + ")");
		this.server = KhamsinServer.create(KhamsinServerConfig.builder().transport(transport).reactors(1).build(),
				new TestRoutes(file).handler());
		this.server.start();
		int threadsBefore = threads();
		List<Socket> readers = new ArrayList<>();
		List<byte[]> starts = new ArrayList<>();
		try {
			for (int i = 0; i < READERS; i++) {
				Socket socket = new Socket();
				readers.add(socket);
				socket.setReceiveBufferSize(4096);
				socket.connect(new InetSocketAddress("127.0.0.1", this.server.port()));
				socket.getOutputStream()
					.write("GET /file HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				byte[] start = socket.getInputStream().readNBytes(512);
				assertThat(start).as("the response begins").hasSize(512);
				starts.add(start);
			}
			// The server has filled every socket it could and now waits on all of them.
			Thread.sleep(1000);
			int added = threads() - threadsBefore;
			assertThat(added).as("threads the server added while %d clients did not read", READERS)
				.isLessThan(READERS / 4);
			for (int i = 0; i < READERS; i++) {
				assertThat(bodyDigest(starts.get(i), readers.get(i).getInputStream())).as("the file as received")
					.isEqualTo(digest);
			}
		}
		finally {
			for (Socket reader : readers) {
				reader.close();
			}
		}
	}

	/** A response whose first bytes were read already, read to its close: the digest of its body. */
	private static byte[] bodyDigest(byte[] start, InputStream in) throws Exception {
		byte[] rest = in.readAllBytes();
		int headEnd = new String(start, StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n");
		assertThat(headEnd).as("the head ends within the first bytes").isNotNegative();
		int bodyStart = headEnd + 4;
		assertThat(start.length - bodyStart + rest.length).as("body length").isEqualTo(FILE_SIZE);
		MessageDigest sha = MessageDigest.getInstance("SHA-256");
		sha.update(start, bodyStart, start.length - bodyStart);
		sha.update(rest);
		return sha.digest();
	}

	/** @return the threads of this process, io_uring's kernel workers among them */
	private static int threads() throws IOException {
		try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
			return (int) tasks.count();
		}
	}

}
