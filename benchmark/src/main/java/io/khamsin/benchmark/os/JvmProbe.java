package io.khamsin.benchmark.os;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a running JVM through {@code jcmd}: the live heap from a class histogram (which runs a full GC first, so
 * only reachable objects count) and the native memory that direct buffers use (NMT's "Other" category, which
 * needs {@code -XX:NativeMemoryTracking=summary}).
 */
public final class JvmProbe {

	private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)\\s*$", Pattern.MULTILINE);

	private static final Pattern OTHER = Pattern.compile("-\\s+Other \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");

	private final long pid;

	public JvmProbe(long pid) {
		this.pid = pid;
	}

	/** @return bytes of live objects after a full GC */
	public long liveHeapBytes() {
		String out = jcmd("GC.class_histogram");
		Matcher total = TOTAL.matcher(out);
		if (!total.find()) {
			throw new IllegalStateException("no Total line in the class histogram of " + this.pid);
		}
		return Long.parseLong(total.group(2));
	}

	/** @return committed kB of NMT's "Other" category (direct buffers among other allocations), or -1 when NMT is off */
	public long nmtOtherKb() {
		Matcher other = OTHER.matcher(jcmd("VM.native_memory summary"));
		return other.find() ? Long.parseLong(other.group(2)) : -1;
	}

	private String jcmd(String command) {
		List<String> args = new java.util.ArrayList<>(List.of("jcmd", Long.toString(this.pid)));
		args.addAll(List.of(command.split(" ")));
		try {
			Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes());
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("jcmd " + command + " failed on " + this.pid + ": " + out);
			}
			return out;
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run jcmd (is a JDK on the PATH?): " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
