package io.khamsin.container.egress;

/**
 * Who seals the records a connection sends, which decides whether a file body can go from the file to the socket
 * by the kernel.
 */
public enum TlsSealing {

	/** No TLS: the bytes leave as they are. */
	PLAIN,

	/** The JVM seals them (Netty's {@code SslHandler}, or a connection waiting for the kernel to take it over). */
	USERSPACE,

	/** The kernel seals them (kernel TLS): what is written leaves as plaintext for the kernel to encrypt. */
	KERNEL,

	/** Kernel TLS was tried for the connection and the kernel did not take it: the JVM seals its records. */
	KERNEL_REFUSED

}
