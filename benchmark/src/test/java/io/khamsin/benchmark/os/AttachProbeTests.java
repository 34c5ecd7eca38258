package io.khamsin.benchmark.os;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class AttachProbeTests {

	@Test
	void readsTheDirectBuffersThatAnotherJvmHolds(@TempDir Path dir) throws Exception {
		Process jvm = startJvm(HoldsFourMegabytes.class);
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
			assertThat(out.readLine()).isEqualTo("holding");

			AttachProbe.Reading memory = new AttachProbe(jvm.pid(), dir).read();

			assertThat(memory.jdkBytes()).isGreaterThanOrEqualTo(4 << 20);
			assertThat(memory.directBytes()).isGreaterThanOrEqualTo(memory.jdkBytes());
		}
		finally {
			jvm.destroyForcibly().waitFor();
		}
	}

	@Test
	void countsTheBytesAllocatedBetweenTwoReadingsAndNotItsOwn(@TempDir Path dir) throws Exception {
		Process jvm = startJvm(AllocatesOnRequest.class);
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
			assertThat(out.readLine()).isEqualTo("ready");
			AttachProbe probe = new AttachProbe(jvm.pid(), dir);
			AttachProbe.Reading first = probe.read();
			AttachProbe.Reading idle = probe.read();

			jvm.getOutputStream().write('\n');
			jvm.getOutputStream().flush();
			assertThat(out.readLine()).isEqualTo("allocated");
			AttachProbe.Reading after = probe.read();

			assertThat(idle.allocatedSince(first)).isLessThan(256 * 1024);
			assertThat(after.allocatedSince(idle)).isBetween(64L << 20, (64L << 20) + (1 << 20));
		}
		finally {
			jvm.destroyForcibly().waitFor();
		}
	}

	private static Process startJvm(Class<?> main) throws IOException {
		return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), main.getName()))
			// JDK 21 and later warn on standard error when an agent is loaded into a running JVM.
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
	}

	/** A JVM that allocates 64 MiB, a megabyte at a time, when a line comes in. */
	static final class AllocatesOnRequest {

		static volatile byte[] sink;

		public static void main(String[] args) throws Exception {
			System.out.println("ready");
			System.out.flush();
			System.in.read();
			for (int i = 0; i < 64; i++) {
				sink = new byte[(1 << 20) - 16];
			}
			System.out.println("allocated");
			System.out.flush();
			Thread.sleep(60_000);
		}

	}

	/** A JVM that holds 4 MiB of direct buffers until it is killed. */
	static final class HoldsFourMegabytes {

		public static void main(String[] args) throws InterruptedException {
			ByteBuffer held = ByteBuffer.allocateDirect(4 << 20);
			System.out.println("holding");
			System.out.flush();
			Thread.sleep(60_000);
			held.put(0, (byte) 1);
		}

	}

}
