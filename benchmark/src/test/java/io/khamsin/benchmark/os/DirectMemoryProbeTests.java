package io.khamsin.benchmark.os;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class DirectMemoryProbeTests {

	@Test
	void readsTheDirectBuffersThatAnotherJvmHolds(@TempDir Path dir) throws Exception {
		Process jvm = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), HoldsFourMegabytes.class.getName()))
			.redirectErrorStream(true)
			.start();
		try {
			BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
			assertThat(out.readLine()).isEqualTo("holding");

			DirectMemoryProbe.DirectMemory memory = new DirectMemoryProbe(jvm.pid(), dir).read();

			assertThat(memory.jdkBytes()).isGreaterThanOrEqualTo(4 << 20);
			assertThat(memory.totalBytes()).isGreaterThanOrEqualTo(memory.jdkBytes());
		}
		finally {
			jvm.destroyForcibly().waitFor();
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
