package io.khamsin.container.egress;

import java.util.Locale;

/**
 * A way a response body leaves the server.
 */
public enum EgressPath {

	/**
	 * From the file to the socket by the kernel ({@code FileRegion}: {@code sendfile}, or {@code splice} on
	 * io_uring), the bytes never in the JVM.
	 */
	SENDFILE,

	/** Read into pooled buffers and written by the JVM: what TLS in user space, protocol framing and copying need. */
	USERSPACE;

	/** @return the name used in tags and in {@code /actuator/khamsin}: {@code sendfile} or {@code userspace} */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
