package io.khamsin.actuate.endpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which ways of writing response bodies this machine and this build of khamsin allow, and why not.
 */
final class EgressModes {

	static final Path AVAILABLE_ULPS = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");

	private EgressModes() {
	}

	/**
	 * The egress modes and their availability.
	 * @param ulps the file that lists the kernel's available upper layer protocols
	 * @return one entry per mode
	 */
	static List<EgressMode> detect(Path ulps) {
		return List.of(new EgressMode("sendfile", true,
				"file bodies of plain HTTP/1.1 responses go from the page cache to the socket (FileRegion)"),
				kernelTls(ulps),
				new EgressMode("userspace", true, "pooled buffers, for every connection"));
	}

	private static EgressMode kernelTls(Path ulps) {
		String available;
		try {
			available = Files.readString(ulps).trim();
		}
		catch (IOException | RuntimeException ex) {
			return new EgressMode("ktls", false, "khamsin does not serve TLS yet, and " + ulps
					+ " could not be read, so kernel TLS support is unknown (" + ex.getMessage() + ")");
		}
		if (!List.of(available.split("\\s+")).contains("tls")) {
			return new EgressMode("ktls", false, "khamsin does not serve TLS yet, and the kernel's tls module is not "
					+ "loaded: " + ulps + " lists '" + available + "' (run 'modprobe tls')");
		}
		return new EgressMode("ktls", false, "the kernel's tls module is loaded, but khamsin does not serve TLS yet");
	}

	/**
	 * One egress mode.
	 *
	 * @param mode the mode
	 * @param available whether responses can use it
	 * @param reason what it does, or why it is not available
	 */
	record EgressMode(String mode, boolean available, String reason) {

	}

}
