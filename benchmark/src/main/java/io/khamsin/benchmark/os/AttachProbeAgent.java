package io.khamsin.benchmark.os;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * Loaded into a target by {@link AttachProbe}: reads, inside the target and without JMX, the memory its direct
 * buffers hold and the bytes each of its threads has allocated, and writes them as properties to the file named by
 * its argument. Two direct memory counters, which never count the same buffer: the JDK's {@code direct} buffer pool
 * ({@code ByteBuffer.allocateDirect}, what Tomcat, Jetty and Netty without its no-cleaner path use) and Netty's own
 * counter of the direct memory it allocates without a cleaner ({@code PlatformDependent.usedDirectMemory()}, -1 when
 * Netty does not count). Allocation comes from HotSpot's per-thread counter
 * ({@code com.sun.management.ThreadMXBean}), per live thread, leaving out the thread the agent runs on so that
 * reading costs nothing that is counted. Depends on the JDK only.
 */
public final class AttachProbeAgent {

	private AttachProbeAgent() {
	}

	public static void agentmain(String file) throws IOException {
		Properties figures = new Properties();
		for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
			figures.setProperty("jdk." + pool.getName() + ".bytes", Long.toString(pool.getMemoryUsed()));
			figures.setProperty("jdk." + pool.getName() + ".count", Long.toString(pool.getCount()));
		}
		try {
			Class<?> platform = Class.forName("io.netty.util.internal.PlatformDependent", true,
					ClassLoader.getSystemClassLoader());
			figures.setProperty("netty.no-cleaner.bytes", platform.getMethod("usedDirectMemory").invoke(null).toString());
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			figures.setProperty("netty.absent", ex.toString());
		}
		if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
				&& threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
			long[] ids = threads.getAllThreadIds();
			long[] allocated = threads.getThreadAllocatedBytes(ids);
			long self = Thread.currentThread().getId();
			for (int i = 0; i < ids.length; i++) {
				if (ids[i] != self && allocated[i] >= 0) {
					figures.setProperty("allocated.thread." + ids[i], Long.toString(allocated[i]));
				}
			}
		}
		Path target = Path.of(file);
		Path written = target.resolveSibling(target.getFileName() + ".tmp");
		try (OutputStream out = Files.newOutputStream(written)) {
			figures.store(out, "direct memory and allocation");
		}
		Files.move(written, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
	}

}
