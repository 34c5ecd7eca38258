package io.khamsin.benchmark.os;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import com.sun.tools.attach.VirtualMachine;

/**
 * Reads the direct memory of a running JVM target, whatever its server: attaches to it (the Attach API, the
 * mechanism {@code jcmd} uses) and loads {@link DirectMemoryAgent}, which reads the JDK's direct buffer pool and
 * Netty's no-cleaner counter in the target and answers through a file. Unlike native memory tracking it needs no
 * flag at the target's start, counts buffers only (NMT's "Other" holds every {@code Unsafe.allocateMemory}) and to
 * the byte. A pooled allocator's memory counts as the pool holds it: a connection that keeps a buffer shows once
 * the pool grows for it.
 */
public final class DirectMemoryProbe {

	private static final String AGENT = DirectMemoryAgent.class.getName().replace('.', '/') + ".class";

	private final long pid;

	private final Path dir;

	private int reads;

	/**
	 * @param pid the target JVM
	 * @param dir where the agent jar and the answers go
	 */
	public DirectMemoryProbe(long pid, Path dir) {
		this.pid = pid;
		this.dir = dir;
	}

	/**
	 * @return what the target's direct buffers hold now
	 * @throws IllegalStateException saying why, when the target cannot be attached to or does not answer
	 */
	public DirectMemory read() {
		try {
			Files.createDirectories(this.dir);
			Path jar = agentJar();
			Path answer = this.dir.resolve("direct-" + this.pid + "-" + (++this.reads) + ".properties");
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
			return DirectMemory.of(figures);
		}
		catch (Exception ex) {
			throw new IllegalStateException("cannot read the direct memory of " + this.pid + " through the Attach API: "
					+ ex, ex);
		}
	}

	private Path agentJar() throws IOException {
		Path jar = this.dir.resolve("direct-memory-agent.jar");
		if (Files.exists(jar)) {
			return jar;
		}
		Manifest manifest = new Manifest();
		manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		manifest.getMainAttributes().put(new Attributes.Name("Agent-Class"), DirectMemoryAgent.class.getName());
		Path written = this.dir.resolve("direct-memory-agent.jar.tmp");
		try (InputStream agent = DirectMemoryAgent.class.getClassLoader().getResourceAsStream(AGENT);
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
	 * The direct memory of a JVM at one moment.
	 *
	 * @param jdkBytes bytes held by the JDK's direct buffers ({@code ByteBuffer.allocateDirect})
	 * @param nettyBytes bytes Netty allocated without a cleaner, or -1 when Netty is absent or does not count them
	 */
	public record DirectMemory(long jdkBytes, long nettyBytes) {

		static DirectMemory of(Properties figures) {
			return new DirectMemory(Long.parseLong(figures.getProperty("jdk.direct.bytes", "0")),
					Long.parseLong(figures.getProperty("netty.no-cleaner.bytes", "-1")));
		}

		/** @return every byte held by direct buffers, whichever way they were allocated */
		public long totalBytes() {
			return this.jdkBytes + Math.max(0, this.nettyBytes);
		}

	}

}
