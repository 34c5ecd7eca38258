package io.khamsin.benchmark.os;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import com.sun.tools.attach.VirtualMachine;

/**
 * Reads the direct memory and the allocation of a running JVM target, whatever its server: attaches to it (the
 * Attach API, the mechanism {@code jcmd} uses) and loads {@link AttachProbeAgent}, which reads the JDK's direct
 * buffer pool, Netty's no-cleaner counter and each thread's allocated bytes in the target and answers through a
 * file. Unlike native memory tracking it needs no
 * flag at the target's start, counts buffers only (NMT's "Other" holds every {@code Unsafe.allocateMemory}) and to
 * the byte. A pooled allocator's memory counts as the pool holds it: a connection that keeps a buffer shows once
 * the pool grows for it.
 */
public final class AttachProbe {

	private static final String AGENT = AttachProbeAgent.class.getName().replace('.', '/') + ".class";

	private static final String ALLOCATED = "allocated.thread.";

	private final long pid;

	private final Path dir;

	private int reads;

	/**
	 * @param pid the target JVM
	 * @param dir where the agent jar and the answers go
	 */
	public AttachProbe(long pid, Path dir) {
		this.pid = pid;
		this.dir = dir;
	}

	/**
	 * @return what the target's direct buffers hold now and what its threads have allocated so far
	 * @throws IllegalStateException saying why, when the target cannot be attached to or does not answer
	 */
	public Reading read() {
		try {
			Files.createDirectories(this.dir);
			Path jar = agentJar();
			Path answer = this.dir.resolve("probe-" + this.pid + "-" + (++this.reads) + ".properties");
			VirtualMachine vm = VirtualMachine.attach(Long.toString(this.pid));
			try {
				vm.loadAgent(jar.toString(), answer.toString());
			}
			finally {
				vm.detach();
			}
			Properties figures = new Properties();
			try (InputStream in = Files.newInputStream(answer)) {
				figures.load(in);
			}
			Files.delete(answer);
			return Reading.of(figures);
		}
		catch (Exception ex) {
			throw new IllegalStateException("cannot read the direct memory and allocation of " + this.pid
					+ " through the Attach API: " + ex, ex);
		}
	}

	private Path agentJar() throws IOException {
		Path jar = this.dir.resolve("attach-probe-agent.jar");
		if (Files.exists(jar)) {
			return jar;
		}
		Manifest manifest = new Manifest();
		manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		manifest.getMainAttributes().put(new Attributes.Name("Agent-Class"), AttachProbeAgent.class.getName());
		Path written = this.dir.resolve("attach-probe-agent.jar.tmp");
		try (InputStream agent = AttachProbeAgent.class.getClassLoader().getResourceAsStream(AGENT);
				OutputStream out = Files.newOutputStream(written);
				JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
			if (agent == null) {
				throw new IOException(AGENT + " is not on the benchmark's classpath");
			}
			jarOut.putNextEntry(new JarEntry(AGENT));
			agent.transferTo(jarOut);
			jarOut.closeEntry();
		}
		return Files.move(written, jar);
	}

	/**
	 * The direct memory and allocation of a JVM at one moment.
	 *
	 * @param jdkBytes bytes held by the JDK's direct buffers ({@code ByteBuffer.allocateDirect})
	 * @param nettyBytes bytes Netty allocated without a cleaner, or -1 when Netty is absent or does not count them
	 * @param allocatedByThread bytes each live thread has allocated since it started, by thread id (empty when the
	 * JVM does not count)
	 */
	public record Reading(long jdkBytes, long nettyBytes, Map<Long, Long> allocatedByThread) {

		public Reading {
			allocatedByThread = Map.copyOf(allocatedByThread);
		}

		static Reading of(Properties figures) {
			Map<Long, Long> allocated = new HashMap<>();
			for (String name : figures.stringPropertyNames()) {
				if (name.startsWith(ALLOCATED)) {
					allocated.put(Long.parseLong(name.substring(ALLOCATED.length())),
							Long.parseLong(figures.getProperty(name)));
				}
			}
			return new Reading(Long.parseLong(figures.getProperty("jdk.direct.bytes", "0")),
					Long.parseLong(figures.getProperty("netty.no-cleaner.bytes", "-1")), allocated);
		}

		/**
		 * The bytes allocated between an earlier reading and this one, by the threads alive at this one: a thread
		 * that ended in between takes its count with it (thread ids are not reused).
		 * @param earlier the earlier reading of the same JVM
		 * @return the bytes, or -1 when the JVM does not count allocation
		 */
		public long allocatedSince(Reading earlier) {
			if (this.allocatedByThread.isEmpty()) {
				return -1;
			}
			long total = 0;
			for (Map.Entry<Long, Long> thread : this.allocatedByThread.entrySet()) {
				total += thread.getValue() - earlier.allocatedByThread.getOrDefault(thread.getKey(), 0L);
			}
			return total;
		}

		/** @return every byte held by direct buffers, whichever way they were allocated */
		public long directBytes() {
			return this.jdkBytes + Math.max(0, this.nettyBytes);
		}

	}

}
