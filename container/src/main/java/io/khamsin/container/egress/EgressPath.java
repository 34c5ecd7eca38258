package io.khamsin.container.egress;

import java.util.Locale;

/**
 * A way a response body leaves the server.
 */
public enum EgressPath {

	/**
	 * As a file region ({@code FileRegion}): from the file to the socket by the kernel's {@code sendfile}, the bytes
	 * never in the JVM; on io_uring read into the transport's buffer and sent, since its splice would hold a kernel
	 * worker for each client that reads slowly.
	 */
	SENDFILE,

	/** Read into pooled buffers and written by the JVM: what TLS in user space, protocol framing and copying need. */
	USERSPACE;

	/** @return the name used in tags and in {@code /actuator/khamsin}: {@code sendfile} or {@code userspace} */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
