package io.khamsin.container.egress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The egress modes of a running server, from what its listeners serve and what the kernel offers: file bodies
 * by the kernel ({@code FileRegion}) on plain connections, kernel TLS ({@code ktls}, which needs the kernel's
 * {@code tls} module), and pooled buffers in user space for every connection.
 */
public final class EgressModes {

	/** The kernel's list of the upper layer protocols it can attach to a TCP socket ({@code tls} among them). */
	static final Path AVAILABLE_ULPS = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");

	private EgressModes() {
	}

	/**
	 * The egress modes of a server.
	 * @param transport the name of the transport it runs on, e.g. {@code io_uring}
	 * @param kernelCopy the call by which the transport copies a file to a socket: {@code sendfile} or {@code splice}
	 * @param plain whether a listener serves plain connections
	 * @param secure whether a listener serves TLS
	 * @return one entry per mode
	 */
	public static List<EgressMode> of(String transport, String kernelCopy, boolean plain, boolean secure) {
		return of(transport, kernelCopy, plain, secure, AVAILABLE_ULPS);
	}

	static List<EgressMode> of(String transport, String kernelCopy, boolean plain, boolean secure, Path ulps) {
		return List.of(sendfile(transport, kernelCopy, plain), kernelTls(secure, ulps),
				new EgressMode("userspace", true, "pooled buffers, for every connection"));
	}

	private static EgressMode sendfile(String transport, String kernelCopy, boolean plain) {
		if (!plain) {
			return new EgressMode("sendfile", false,
					"no listener serves plain connections, and the kernel cannot encrypt what it copies without ktls");
		}
		return new EgressMode("sendfile", true, "file bodies on plain connections go from the page cache to the socket "
				+ "(FileRegion, by " + kernelCopy + " on " + transport + ")");
	}

	private static EgressMode kernelTls(boolean secure, Path ulps) {
		String khamsin = secure ? "khamsin does not hand TLS to the kernel yet" : "no listener serves TLS";
		String available;
		try {
			available = Files.readString(ulps).trim();
		}
		catch (IOException | RuntimeException ex) {
			return new EgressMode("ktls", false, khamsin + ", and " + ulps
					+ " could not be read, so kernel TLS support is unknown (" + ex.getMessage() + ")");
		}
		if (!List.of(available.split("\\s+")).contains("tls")) {
			return new EgressMode("ktls", false, khamsin + ", and the kernel's tls module is not loaded: " + ulps
					+ " lists '" + available + "' (run 'modprobe tls')");
		}
		return new EgressMode("ktls", false, khamsin + "; the kernel's tls module is loaded");
	}

}
