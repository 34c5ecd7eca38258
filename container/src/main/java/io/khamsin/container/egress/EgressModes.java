package io.khamsin.container.egress;

import java.util.List;

/**
 * The egress modes of a running server, from what its listeners serve and what the kernel offers: file bodies
 * by the kernel ({@code FileRegion}) on plain connections, kernel TLS ({@code ktls}: the kernel seals the records,
 * so file bodies over TLS go by the kernel too), and pooled buffers in user space for every connection.
 */
public final class EgressModes {

	private EgressModes() {
	}

	/**
	 * The egress modes of a server.
	 * @param transport the name of the transport it runs on, e.g. {@code io_uring}
	 * @param regionCalls the calls by which the transport sends a file region: {@code sendfile}, or on io_uring a read
	 * into a buffer and a send
	 * @param plain whether a listener serves plain connections
	 * @param kernelTls what kernel TLS does on its TLS listener: whether some connections hand their sending to the
	 * kernel, and the line that says so; {@code null} when no listener serves TLS
	 * @return one entry per mode
	 */
	public static List<EgressMode> of(String transport, String regionCalls, boolean plain, KernelTls kernelTls) {
		EgressMode ktls = (kernelTls != null) ? new EgressMode("ktls", kernelTls.engages(), kernelTls.description())
				: new EgressMode("ktls", false, "no listener serves TLS");
		return List.of(sendfile(transport, regionCalls, plain), ktls,
				new EgressMode("userspace", true, "pooled buffers, for every connection; a file body of at most "
						+ FileEgress.WHOLE_READ_LIMIT / 1024
						+ " KiB read whole on the event loop, a larger one in chunks off it"));
	}

	private static EgressMode sendfile(String transport, String regionCalls, boolean plain) {
		if (!plain) {
			return new EgressMode("sendfile", false,
					"no listener serves plain connections; over TLS the kernel copies files only with ktls");
		}
		return new EgressMode("sendfile", true, "file bodies on plain connections go from the page cache to the socket "
				+ "(FileRegion, by " + regionCalls + " on " + transport + ")");
	}

	/**
	 * What kernel TLS does on a TLS listener.
	 * @param engages whether some of its connections may hand their sending to the kernel
	 * @param description the setting and what it does on this machine, with the reason when it does nothing
	 */
	public record KernelTls(boolean engages, String description) {

	}

}
