package io.khamsin.container.egress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.khamsin.container.transport.Transport;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ResolvedTransport;

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
	 * @param transport the transport it runs on
	 * @param listeners its listeners
	 * @return one entry per mode
	 */
	public static List<EgressMode> of(ResolvedTransport transport, List<ListenerInfo> listeners) {
		return of(transport, listeners, AVAILABLE_ULPS);
	}

	static List<EgressMode> of(ResolvedTransport transport, List<ListenerInfo> listeners, Path ulps) {
		boolean plain = listeners.stream().anyMatch((listener) -> !listener.secure());
		boolean secure = listeners.stream().anyMatch(ListenerInfo::secure);
		return List.of(sendfile(transport, plain), kernelTls(secure, ulps),
				new EgressMode("userspace", true, "pooled buffers, for every connection"));
	}

	private static EgressMode sendfile(ResolvedTransport transport, boolean plain) {
		if (!plain) {
			return new EgressMode("sendfile", false,
					"no listener serves plain connections, and the kernel cannot encrypt what it copies without ktls");
		}
		String call = (transport.transport() == Transport.IO_URING) ? "splice" : "sendfile";
		return new EgressMode("sendfile", true, "file bodies on plain connections go from the page cache to the socket "
				+ "(FileRegion, by " + call + " on " + transport.name() + ")");
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
